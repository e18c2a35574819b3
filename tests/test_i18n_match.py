"""A match against the bot and hints in German and Japanese, through discord.py's real
dispatch: scoreboards, half-round boards and hints speak the server's language, a refusal
speaks the player's, the words are the catalog's and what is stored is what English stores."""

from __future__ import annotations

import pytest
from i18n_play import DISCORD, crack, rows, speak, words

from bot.core.matches import INVITATION_SECONDS
from i18n import speaking, tr, trc, trn


# ---- a match against the bot ----------------------------------------------------------------
def scoreboard(result, locale: str, match_id: int) -> dict:
    """The scoreboard an interaction posted (its footer names the match in ``locale``)."""
    footer = words(locale, "Match #{id}", id=match_id)
    for message in [*reversed(result.followups), result.original]:
        for embed in message.embeds:
            if (embed.get("footer") or {}).get("text", "").startswith(footer):
                return embed
    raise AssertionError(f"no scoreboard in {result.messages}")


def the_match(db_path) -> dict:
    columns = ("id", "status", "half_scores", "winner")
    found = rows(db_path, f"SELECT {', '.join(columns)} FROM matches ORDER BY id DESC LIMIT 1")
    return dict(zip(columns, found[0], strict=True))


def running(db_path, channel_id: int) -> tuple:
    found = rows(db_path, "SELECT id, kind, secret FROM games WHERE channel_id = ? AND "
                          "status = 'active'", channel_id)
    assert len(found) == 1
    return found[0]


@pytest.mark.parametrize("locale", ["de", "ja"])
async def test_a_match_against_the_bot(fake_discord, start_bot, world, db_path, locale):
    speak(world, server=locale, player=locale)
    stranger = "ja" if locale == "de" else "de"
    world.bob.user.locale = DISCORD[stranger]
    bot = await start_bot()
    alice = f"<@{world.alice.id}>"
    started = await fake_discord.slash(bot, "match", user=world.alice, channel=world.general,
                                       guild=world.guild, rounds=1)
    assert not started.ephemeral
    match_id = the_match(db_path)["id"]
    board = scoreboard(started, locale, match_id)
    with speaking(locale):
        me = trc("the bot, as a side of a match", "me")
        assert board["title"] == tr("Match: round {round} of {rounds}", round=1, rounds=1)
        assert tr("{player} against me", player=alice) in board["description"]
        assert tr("Round {round} of {rounds}, first half", round=1, rounds=1) in (
            board["description"])
        assert f"**{tr('Total moves')}** {alice} **0** · {me} **0**" in board["description"]
        half = tr("Match #{id} · round {round} of {rounds}, first half", id=match_id, round=1,
                  rounds=1)
    assert any(half in m.text for m in started.messages)

    # Someone else's /guess is refused in their own language; nothing is stored.
    _, kind, secret = running(db_path, world.general.id)
    assert kind == "breaker"
    refused = await fake_discord.slash(bot, "guess", user=world.bob, channel=world.general,
                                       guild=world.guild, code="1122")
    assert refused.ephemeral
    assert refused.embed["title"] == words(stranger, "Not your code to break")
    assert the_match(db_path)["half_scores"] == ""

    # First half: alice breaks the bot's code at once.
    won = await fake_discord.slash(bot, "guess", user=world.alice, channel=world.general,
                                   guild=world.guild, code=secret)
    assert not won.ephemeral
    shown = scoreboard(won, locale, match_id)
    assert words(locale, "Total moves") in shown["description"]
    assert f"{alice} **1** · {me} **0**" in shown["description"]
    _, kind, _ = running(db_path, world.general.id)
    assert kind == "challenge"
    with speaking(locale):
        second = tr("Match #{id} · round {round} of {rounds}, second half", id=match_id,
                    round=1, rounds=1)
    assert any(second in m.text for m in won.messages)

    # Second half: the bot breaks 3632 on its board, in the server's language.
    challenge_board_message = next(m for m in won.messages if second in m.text)
    moves, board = await crack(fake_discord, bot, fake_discord.message(
        challenge_board_message.id), "3632", world.alice)
    match = the_match(db_path)
    assert (match["status"], match["half_scores"], match["winner"]) == (
        "finished", f"1,{moves}", "a")
    final = fake_discord.last_message(world.general)
    embed = next(e for e in final.embeds
                 if (e.get("footer") or {}).get("text", "").startswith(
                     words(locale, "Match #{id}", id=match_id)))
    with speaking(locale):
        assert embed["title"] == tr("Match over: you win")
        assert trn("{winner} wins, {best} moves to {count}.",
                   "{winner} wins, {best} moves to {count}.", moves, winner=alice,
                   best=1) in embed["description"]
    assert rows(db_path, "SELECT user_id, mode, won FROM match_results") == [
        (world.alice.id, "match-bot", 1)]
    fake_discord.assert_no_violations()


# ---- hints ------------------------------------------------------------------------------------
async def test_a_hint_speaks_to_the_channel_and_a_refusal_to_the_asker(fake_discord, start_bot,
                                                                      world, db_path):
    speak(world, server="ja", player="de")
    bot = await start_bot()
    await fake_discord.slash(bot, "mastermind new", user=world.alice, channel=world.general,
                             guild=world.guild)
    hint = await fake_discord.slash(bot, "mastermind hint", user=world.alice,
                                    channel=world.general, guild=world.guild)
    assert not hint.ephemeral
    with speaking("ja"):
        assert tr("Hint {level} of {levels}: {title}", level=1, levels=3,
                  title=tr("How many codes are left")) in hint.embed["title"]
        assert trn("Only {count} code still fits every reply.",
                   "{count} codes still fit every reply.", 1296) in hint.embed["description"]
    # The record stays in English, whoever asked in whatever language.
    assert rows(db_path, "SELECT text FROM hints") == [("1296 codes still fit every reply.",)]
    refused = await fake_discord.slash(bot, "mastermind hint", user=world.alice,
                                       channel=world.general, guild=world.guild)
    assert refused.ephemeral and refused.embed["title"] == words("de", "Guess first")
    assert rows(db_path, "SELECT COUNT(*) FROM hints") == [(1,)]
    fake_discord.assert_no_violations()


async def test_an_invitation_between_two_players(fake_discord, start_bot, world, db_path):
    """The invitation and its buttons speak the server's language whoever clicks; the
    inviter pressing Accept is told why not in their own."""
    speak(world, server="de", player="ja")
    world.bob.user.locale = "ko"
    bot = await start_bot()
    invited = await fake_discord.slash(bot, "match", user=world.alice, channel=world.general,
                                       guild=world.guild, options={"opponent": world.bob})
    invitation = invited.message
    match_id = rows(db_path, "SELECT id FROM matches")[0][0]
    alice, bob = f"<@{world.alice.id}>", f"<@{world.bob.id}>"
    with speaking("de"):
        assert invitation.embed["title"] == tr("A match invitation")
        assert trn("{invitee}, accept or decline within {count} minute.",
                   "{invitee}, accept or decline within {count} minutes.",
                   INVITATION_SECONDS // 60, invitee=bob) in invitation.embed["description"]
        assert [b["label"] for b in invitation.buttons] == [tr("Accept"), tr("Decline")]
    own = await fake_discord.click(bot, invitation, f"mmm:accept:{match_id}", user=world.alice)
    assert own.ephemeral and own.embed["title"] == words("ja", "Waiting for your opponent")
    accepted = await fake_discord.click(bot, invitation, f"mmm:accept:{match_id}",
                                        user=world.bob)
    assert not accepted.ephemeral
    board = fake_discord.message(invitation.id)
    with speaking("de"):  # bob clicked in Korean; the channel reads German
        assert board.embed["title"] == tr("Match: round {round} of {rounds}", round=1,
                                          rounds=3)
        assert tr("{player} against {opponent}", player=alice, opponent=bob) in (
            board.embed["description"])
        assert [b["label"] for b in board.buttons] == [tr("Set my code")]
    assert rows(db_path, "SELECT status FROM matches") == [("active",)]
    fake_discord.assert_no_violations()
