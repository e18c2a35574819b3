"""The challenge and the peg picker in German and Japanese, through discord.py's real
dispatch: what the channel sees speaks the server's language (``guild.locale``), what only
the player sees (the picker, the reveal, a private board) speaks the player's
(``user.locale``), every word is the catalog's, every message stays inside Discord's limits
(the fake Discord checks each one), and what is stored is what English stores. The match
and hints: tests/test_i18n_match.py."""

from __future__ import annotations

import pytest
from conftest import board_title
from fake_discord.limits import FLAG_COMPONENTS_V2, check_message
from i18n_play import (
    answer,
    challenge,
    crack,
    game_id,
    labels,
    pending,
    rows,
    speak,
    words,
)
from picking import open_picker, pick, tap

from bot.core.enums import GameKind, GameStatus
from bot.core.records import GameRecord, ReplyRecord
from bot.features.challenge.picking import RevealPurpose
from bot.features.challenge.render import challenge_board, strategy_line, two_step
from bot.features.challenge.service import ChallengeState
from bot.features.match.picking import MatchCodePurpose, SetterGamePurpose
from bot.features.picker.purposes import Purpose
from bot.features.picker.render import DELETE, SUBMIT
from bot.ui.pegs import BLACK_PEG, WHITE_PEG, code_line
from engine import Feedback, Mistake, Rules, code_from_digits, possible_feedbacks, score
from i18n import SHIPPED, speaking, tr, trc, trn


# ---- a challenge, start to end ---------------------------------------------------------------
@pytest.mark.parametrize(("server", "player"), [("de", "de"), ("ja", "ja"), ("de", "ja")])
async def test_a_challenge_played_to_the_end(fake_discord, start_bot, world, db_path, server,
                                             player):
    speak(world, server=server, player=player)
    bot = await start_bot()
    alice = f"<@{world.alice.id}>"
    board = await challenge(fake_discord, bot, world)
    with speaking(server):  # the channel's board: the server's language
        assert board_title(board) == tr("My guess {turn} of {most}", turn=1, most=10)
        assert tr("{player}, how does it score against your code?", player=alice) in board.text
        assert tr("I play {strategy}", strategy=strategy_line("optimal", Rules())) in board.text
        assert {tr("Reveal my code"), trc("a reply with no key pegs", "none")} <= set(
            labels(board))
        assert trn("{shown} possible code", "{shown} possible codes", 1296,
                   shown="1.296" if server == "de" else "1,296") in board.text
    assert "My guess" not in board.text and "Reveal my code" not in labels(board)

    used, board = await crack(fake_discord, bot, board, "3632", world.alice)
    with speaking(server):
        assert board_title(board) == trn("I broke your code in {count} guess!",
                                         "I broke your code in {count} guesses!", used)
        assert tr("{player}'s code was {code}.", player=alice,
                  code=code_line(code_from_digits("3632"))) in board.text
        assert tr("Play again") in labels(board)
    fake_discord.assert_no_violations()

    # The same challenge in English stores the same game: the language is only words.
    speak(world, server="en", player="en")
    again = await fake_discord.click(bot, board, label=words(server, "Play again"),
                                     user=world.alice)
    english = again.message
    assert board_title(english) == "My guess 1 of 10"
    assert (await crack(fake_discord, bot, english, "3632", world.alice))[0] == used
    first, second = game_id(board), game_id(english)
    replies = "SELECT turn, guess, black, white FROM challenge_replies WHERE game_id = ?"
    assert rows(db_path, replies, first) == rows(db_path, replies, second)
    status = "SELECT status, pegs, colors, strategy FROM games WHERE id = ?"
    assert rows(db_path, status, first) == rows(db_path, status, second)


@pytest.mark.parametrize(("server", "player"), [("de", "ja"), ("ja", "de")])
async def test_a_reveal_speaks_to_the_challenger_and_the_channel(fake_discord, start_bot, world,
                                                                 db_path, server, player):
    speak(world, server=server, player=player)
    bot = await start_bot()
    board = await challenge(fake_discord, bot, world)
    _, guess = pending(board)
    secret = "3632"
    assert score(secret, guess) != Feedback(0, 0)
    await answer(fake_discord, bot, board, Feedback(0, 0), world.alice)  # a wrong reply
    board = fake_discord.message(board.id)

    _, picker = await open_picker(fake_discord, bot, board, world.alice,
                                  label=words(server, "Reveal my code"))
    with speaking(player):  # only the challenger sees the picker: their language
        title = tr("Reveal your code")
        assert picker.content.startswith(f"**{title}**")
        assert trn("pick {count} more", "pick {count} more", 4) in picker.content
        verb = tr("Reveal")
        assert {tr("Type"), f"{DELETE} {tr('Delete')}", f"{SUBMIT} {verb}"} <= set(
            labels(picker))
    picker, _ = await pick(fake_discord, bot, picker, secret, world.alice)
    assert words(player, "ready: press **{verb}**", verb=verb) in picker.content
    submitted = await tap(fake_discord, bot, picker, "s", world.alice)

    with speaking(player):
        assert fake_discord.message(picker.id).content == trn(
            "You revealed {code}: {count} reply was wrong. The board below shows it all.",
            "You revealed {code}: {count} replies were wrong. The board below shows it all.", 1,
            code=code_line(code_from_digits(secret)))
    final = submitted.followups[0]
    assert not final.ephemeral
    with speaking(server):  # the finished board is the channel's
        assert board_title(final) == tr("Code revealed")
        assert tr("These replies were wrong:") in final.text
    assert rows(db_path, "SELECT status, secret FROM games") == [("quit", secret)]
    fake_discord.assert_no_violations()


async def test_a_private_challenge_speaks_its_players_language(fake_discord, start_bot, world,
                                                               db_path):
    """A board only its player sees is theirs: in a German server, a Japanese player's
    private challenge is Japanese from the first guess to the last, and so is quitting it."""
    speak(world, server="de", player="ja")
    bot = await start_bot()
    board = await challenge(fake_discord, bot, world, private=True)
    assert board.ephemeral
    gid = game_id(board)
    with speaking("ja"):
        assert board_title(board) == tr("My guess {turn} of {most}", turn=1, most=10)
        assert tr("Private challenge #{id}", id=gid) in board.text
    used, board = await crack(fake_discord, bot, board, "3632", world.alice)
    assert board.ephemeral
    with speaking("ja"):
        assert board_title(board) == trn("I broke your code in {count} guess!",
                                         "I broke your code in {count} guesses!", used)
        assert tr("Play again") in labels(board)
    assert rows(db_path, "SELECT status, private FROM games") == [("won", 1)]
    fake_discord.assert_no_violations()


async def test_ending_a_challenge_is_said_in_the_channels_language(fake_discord, start_bot,
                                                                  world, db_path):
    speak(world, server="ja", player="de")
    bot = await start_bot()
    board = await challenge(fake_discord, bot, world)
    quit_ = await fake_discord.slash(bot, "mastermind quit", user=world.alice,
                                     channel=world.general, guild=world.guild)
    assert not quit_.ephemeral
    with speaking("ja"):
        assert quit_.embed["title"] == tr("Challenge ended")
        assert quit_.embed["description"] == tr("{ender} ended their challenge.",
                                                ender=f"<@{world.alice.id}>")
    await fake_discord.wait_until(lambda: not any(
        c.startswith("mmc:r:") for c in fake_discord.message(board.id).custom_ids),
        what="the live board collapsed")
    collapsed = fake_discord.message(board.id)
    assert board_title(collapsed) == words("ja", "Challenge ended")
    assert words("ja", "Play again") in labels(collapsed)
    assert rows(db_path, "SELECT status FROM games") == [("quit",)]
    fake_discord.assert_no_violations()


# ---- the 8x9 board's two steps, in German ------------------------------------------------------
async def test_the_8x9_two_step_board_in_german(fake_discord, start_bot, world):
    speak(world, server="de", player="de")
    bot = await start_bot()
    board = await challenge(fake_discord, bot, world, pegs=8, colors=9, max_guesses=20)
    gid, alice = game_id(board), f"<@{world.alice.id}>"
    with speaking("de"):
        assert tr("{player}, **step 1 of 2**: how many `{black_peg}` black?", player=alice,
                  black_peg=BLACK_PEG) in board.text
    step = await fake_discord.click(bot, board, f"mmc:b:{gid}:1:1", user=world.alice)
    assert not step.ephemeral
    board = fake_discord.message(board.id)
    with speaking("de"):
        assert tr("{player}, **step 2 of 2**: you picked **{black} black**; now how many "
                  "`{white_peg}` white?", player=alice, black=1,
                  white_peg=WHITE_PEG) in board.text
        assert tr("\N{LEFTWARDS ARROW} other black") in labels(board)
    back = await fake_discord.click(bot, board, f"mmc:back:{gid}:1", user=world.alice)
    assert not back.ephemeral
    assert f"mmc:b:{gid}:1:1" in fake_discord.message(board.id).custom_ids
    assert all(len(label) <= 80 for label in labels(fake_discord.message(board.id)))
    fake_discord.assert_no_violations()


def _code(rules: Rules, n: int) -> tuple[int, ...]:
    return tuple(1 + (n * 7 + i * 3) % rules.colors for i in range(rules.pegs))


@pytest.mark.parametrize("locale", SHIPPED)
def test_a_full_8x9_challenge_fits_in_every_language(locale):
    """Twenty rows of replies at 8x9, the two steps, and the revealed board with every reply
    wrong: inside the V2 message's 4,000 characters and the labels' 80 in every locale."""
    rules = Rules(8, 9, 20)
    secret = _code(rules, 0)
    replies = tuple(ReplyRecord(i, i, _code(rules, i), score(secret, _code(rules, i)), 1, 0.0)
                    for i in range(1, 20))
    guess = max((_code(rules, n) for n in range(40)),
                key=lambda g: len(possible_feedbacks(rules, g)))

    def game(status: GameStatus, **changes) -> GameRecord:
        return GameRecord(id=2**63 - 1, guild_id=1, channel_id=1, kind=GameKind.CHALLENGE,
                          rules=rules, status=status, started_by=2**63 - 1, winner_id=None,
                          created_at=0.0, updated_at=0.0, ended_at=None, board_message_id=None,
                          strategy="optimal", replies=replies, **{"secret": None, **changes})

    playing = ChallengeState(game(GameStatus.ACTIVE, pending_guess=guess,
                                  codes_left=43_046_721))
    assert two_step(playing)
    wrong = tuple(Mistake(r.turn, r.guess, r.feedback, Feedback(0, 0)) for r in replies)
    revealed = ChallengeState(game(GameStatus.QUIT, secret=secret), mistakes=wrong)
    with speaking(locale):
        boards = [challenge_board(playing), challenge_board(revealed),
                  *(challenge_board(playing, black=b)
                    for b in sorted({f.black for f in possible_feedbacks(rules, guess)}))]
        for view in boards:
            payload = {"components": view.to_components(), "flags": FLAG_COMPONENTS_V2}
            assert check_message(payload, creating=True) == []


@pytest.mark.parametrize("locale", SHIPPED)
@pytest.mark.parametrize("purpose", [Purpose, RevealPurpose, SetterGamePurpose,
                                     MatchCodePurpose])
def test_the_pickers_words_fit_discord_in_every_language(locale, purpose):
    """The submit button (80), the typed form's title and its field's label (45 each)."""
    with speaking(locale):
        assert len(f"{SUBMIT} {tr(purpose.verb)}") <= 80
        assert len(tr(purpose.form_title)) <= 45
        for pegs, colors in ((2, 2), (8, 9)):
            label = tr("{title} ({pegs} pegs, colours 1-{colors})", title=tr(purpose.title),
                       pegs=pegs, colors=colors)
            assert len(label) <= 45, label


# ---- the peg picker, in Japanese -------------------------------------------------------------
async def test_the_picker_in_japanese(fake_discord, start_bot, world, db_path):
    """``/mastermind new setter:me``: the setter picks a code on a picker only they see, in
    their language; the game's board goes to the channel in the server's."""
    speak(world, server="de", player="ja")
    bot = await start_bot()
    opened = await fake_discord.slash(bot, "mastermind new", user=world.alice,
                                      channel=world.general, guild=world.guild, setter="me")
    picker = opened.message
    assert picker.ephemeral
    with speaking("ja"):
        title = tr("Your secret code")
        assert picker.content.startswith(tr(
            "**{title}** for a game of {pegs} pegs, {colors} colours: only you see it, the "
            "others break it", title=title, pegs=4, colors=6))
        verb = tr("Set code")
        assert {tr("Type"), f"{DELETE} {tr('Delete')}", f"{SUBMIT} {verb}"} <= set(
            labels(picker))
    assert all(len(label) <= 80 for label in labels(picker))

    picker, _ = await pick(fake_discord, bot, picker, "3", world.alice)
    deleted = await tap(fake_discord, bot, picker, "x", world.alice)  # the 3 taken back
    assert deleted.response is not None and deleted.response.type == 7  # drawn in place
    picker = fake_discord.message(picker.id)
    with speaking("ja"):
        assert trn("pick {count} more", "pick {count} more", 4) in picker.content
    picker, _ = await pick(fake_discord, bot, picker, "12", world.alice)
    with speaking("ja"):
        assert trn("pick {count} more", "pick {count} more", 2) in picker.content

    typed = await tap(fake_discord, bot, picker, "t", world.alice)
    modal = typed.modal
    assert modal is not None
    with speaking("ja"):
        assert modal["title"] == tr("Type your secret code")
        field = modal["components"][0]["components"][0]
        assert field["label"] == tr("{title} ({pegs} pegs, colours 1-{colors})", title=title,
                                    pegs=4, colors=6)
        assert field["value"] == "12"
    set_code = await fake_discord.submit_modal(bot, typed, {"code": "1234"}, user=world.alice)
    with speaking("ja"):
        assert fake_discord.message(picker.id).content == tr(
            "Your secret code {code} is set. Nobody else has seen it: the board below is for "
            "the breakers.", code=code_line((1, 2, 3, 4)))
    public = [m for m in set_code.followups if not m.ephemeral]
    assert public and words("de", "Nobody but {player} has seen this code.",
                            player=f"<@{world.alice.id}>") in public[0].text
    assert rows(db_path, "SELECT secret, setter_id FROM games") == [("1234", world.alice.id)]
    fake_discord.assert_no_violations()
