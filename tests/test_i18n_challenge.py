"""The challenge, the match, the peg picker and hints in German and Japanese, through
discord.py's real dispatch: what the channel sees speaks the server's language
(``guild.locale``), what only the player sees (the picker, the reveal, a refusal) speaks the
player's (``user.locale``), every word is the catalog's, every message stays inside Discord's
limits (the fake Discord checks each one), and what is stored is what English stores."""

from __future__ import annotations

import contextlib
import re

import dbtools
import pytest
from conftest import board_title
from fake_discord.limits import FLAG_COMPONENTS_V2, check_message
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

#: Discord's name of each catalog's locale, as a client sends it.
DISCORD = {"de": "de", "ja": "ja", "en": "en-US"}
CODE_LINE = re.compile(r"^#{2,3} .*`(\d+)`$", re.M)


# ---- helpers --------------------------------------------------------------------------------
def speak(world, *, server: str, player: str) -> None:
    """The server's language (public boards) and alice's client language."""
    world.guild.locale = DISCORD[server]
    world.alice.user.locale = DISCORD[player]


def words(locale: str, message: str, **values) -> str:
    with speaking(locale):
        return tr(message, **values)


def labels(message) -> list[str]:
    return [b.get("label") or "" for b in message.buttons]


def rows(db_path, sql: str, *args) -> list[tuple]:
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        return [tuple(r) for r in conn.execute(sql, args).fetchall()]


def pending(board) -> tuple[int, str]:
    """(turn, guess) the board asks about, read from its buttons and its big code line."""
    turns = {int(c.split(":")[3]) for c in board.custom_ids if c.startswith(("mmc:r:", "mmc:b:"))}
    assert len(turns) == 1, board.custom_ids
    found = CODE_LINE.search(board.text)
    assert found, board.text
    return turns.pop(), found[1]


def game_id(board) -> int:
    return int(board.custom_ids[0].split(":")[2])


async def answer(fake, bot, board, reply: Feedback, user):
    """Click the reply, through the black count first when the board takes two steps."""
    turn, _ = pending(board)
    gid = game_id(board)
    button = f"mmc:r:{gid}:{turn}:{reply.black}:{reply.white}"
    if button not in board.custom_ids:
        step = await fake.click(bot, board, f"mmc:b:{gid}:{turn}:{reply.black}", user=user)
        assert step.response is not None and step.response.type in (6, 7), step.embed
        board = fake.message(board.id)
    return await fake.click(bot, board, button, user=user)


async def crack(fake, bot, board, secret: str, user) -> tuple[int, object]:
    """Answer every guess truthfully until the board stops asking: (guesses, board)."""
    for _ in range(20):
        turn, guess = pending(board)
        result = await answer(fake, bot, board, score(secret, guess), user)
        assert result.response is not None and result.response.type in (6, 7), result.embed
        board = fake.message(board.id)
        if not any(c.startswith("mmc:r:") for c in board.custom_ids):
            return turn, board
    raise AssertionError("the bot never finished")


async def challenge(fake, bot, world, **options):
    started = await fake.slash(bot, "challenge", user=world.alice, channel=world.general,
                               guild=world.guild, **options)
    assert started.ephemeral == bool(options.get("private")), started.embed
    return started.message


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
