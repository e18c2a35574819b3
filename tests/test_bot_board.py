"""The board people see: legible pegs, one live board, endings, the challenge board, names.

Every test drives a real MastermindBot through discord.py's own dispatch (the fake Discord,
which also checks every message against Discord's limits) with a real SQLite file.
"""

from __future__ import annotations

import re

import dbtools
import pytest
from conftest import CHALLENGE_TURN, board_title, secret_of, snapshot

from bot.core.errors import StorageUnavailable
from bot.ui.app_emoji import emoji_name
from bot.ui.contrast import DARK_EMBED, LIGHT, MIN_CONTRAST, emoji_contrast, emoji_in, legible
from bot.ui.peg_images import peg_images
from bot.ui.pegs import PEG_EMOJI, SHARE_BLACK, SHARE_EMPTY, SHARE_WHITE, share_row
from engine import Rules, possible_feedbacks, score


async def slash(fake, bot, world, command, user=None, **options):
    return await fake.slash(bot, command, user=user or world.alice, channel=world.general,
                            guild=world.guild, **options)


def misses(secret: str, n: int, colors: int = 6) -> list[str]:
    """``n`` different valid codes that are not the secret."""
    found = []
    for a in range(1, colors + 1):
        for b in range(1, colors + 1):
            code = f"{a}{b}{a}{b}"[: len(secret)].ljust(len(secret), "1")
            if code != secret and code not in found:
                found.append(code)
    return found[:n]


def texts(message: dict) -> list[str]:
    """Every piece of text a message shows, buttons included."""
    out = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        out += [embed.get("title") or "", embed.get("description") or "",
                (embed.get("footer") or {}).get("text", "")]
        out += [f"{f['name']} {f['value']}" for f in embed.get("fields") or []]
    stack = list(message.get("components") or [])
    while stack:
        component = stack.pop()
        stack += component.get("components") or []
        out.append(component.get("label") or "")
        out.append(component.get("content") or "")  # a Components V2 text display
        out.append((component.get("emoji") or {}).get("name") or "")
    return out


def everything_sent(fake) -> list[dict]:
    """Every version of every message the bot sent or edited, as the API returned it."""
    seen = [m.payload() for m in fake.state.messages.values()]
    for record in fake.state.interactions.values():
        seen += [event.message.payload() for event in record.events]
    return seen


def is_board(message) -> bool:
    """An embed board, or a Components V2 board (its container)."""
    return bool(message.embeds) or any(c.get("type") == 17 for c in message.components)


def board_messages(fake, channel) -> list:
    return [m for m in fake.messages(channel, include_ephemeral=False) if is_board(m)]


# ---- pegs ------------------------------------------------------------------------------------
def test_every_peg_reads_on_both_themes_and_the_old_ones_did_not():
    for emoji in PEG_EMOJI:
        for background in (DARK_EMBED, LIGHT):
            assert emoji_contrast(emoji, background) >= MIN_CONTRAST, (emoji, background)
    # what the issue measured: ⬛ ⚫ on the dark embed, ⬜ ▫️ ⚪ on white
    assert round(emoji_contrast("\N{BLACK LARGE SQUARE}", DARK_EMBED), 2) == 1.15
    assert round(emoji_contrast("\N{MEDIUM WHITE CIRCLE}", LIGHT), 2) == 1.24
    assert not any(legible(e) for e in "\N{BLACK LARGE SQUARE}\N{WHITE LARGE SQUARE}"
                                       "\N{MEDIUM BLACK CIRCLE}\N{LARGE YELLOW CIRCLE}")
    assert emoji_in("`2●1○` \N{WHITE SMALL SQUARE}\ufe0f") == ["\N{WHITE SMALL SQUARE}"]


async def test_no_low_contrast_emoji_in_any_board(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    # a classic game won, an 8x9 game quit, a challenge answered, revealed, a 8x9 two-step
    await slash(fake_discord, bot, world, "mastermind new", colors=9)
    secret = secret_of(db_path, world.general.id)
    for code in [*misses(secret, 2, colors=9), secret]:
        await slash(fake_discord, bot, world, "guess", code=code)
    await slash(fake_discord, bot, world, "mastermind new", pegs=8, colors=9, max_guesses=20)
    for code in ("12345678", "98765432", "11223344"):
        await slash(fake_discord, bot, world, "guess", user=world.bob, code=code)
    await slash(fake_discord, bot, world, "mastermind board", user=world.bob)
    await slash(fake_discord, bot, world, "mastermind quit")
    started = await slash(fake_discord, bot, world, "challenge", strategy="knuth")
    board = started.message
    await fake_discord.click(bot, board, f"mmc:r:{_game(board)}:1:0:1", user=world.alice)
    await slash(fake_discord, bot, world, "feedback", black=0, white=0)
    await slash(fake_discord, bot, world, "mastermind quit")
    big = await slash(fake_discord, bot, world, "challenge", pegs=8, colors=9, max_guesses=20,
                      strategy="knuth")
    step = next(c for c in big.message.custom_ids if c.startswith("mmc:b:"))
    await fake_discord.click(bot, big.message, step, user=world.alice)
    await slash(fake_discord, bot, world, "mastermind quit")
    await slash(fake_discord, bot, world, "leaderboard")
    await slash(fake_discord, bot, world, "stats", options={"user": None})
    await slash(fake_discord, bot, world, "mastermind help")

    sent = everything_sent(fake_discord)
    shown = {e for message in sent for text in texts(message) for e in emoji_in(text)}
    drawn = {m[1] for message in sent for text in texts(message)
             for m in re.finditer(r"<:(\w+):\d+>", text)}
    assert drawn == {emoji_name(i) for i in peg_images()[:9]}, "the boards show drawn pegs"
    unreadable = sorted(e for e in shown if not legible(e))
    assert unreadable == [], f"emoji that vanish on a theme: {unreadable}"
    fake_discord.assert_no_violations()


def _game(message) -> int:
    return int(next(c for c in message.custom_ids if c.startswith("mmc:")).split(":")[2])


# ---- one live board --------------------------------------------------------------------------
@pytest.mark.both_databases
async def test_one_live_board_after_ten_guesses_by_three_players(fake_discord, start_bot, world,
                                                                 db_path):
    bot = await start_bot()
    await slash(fake_discord, bot, world, "mastermind new")
    secret = secret_of(db_path, world.general.id)
    players = [world.alice, world.bob, world.mod]
    codes = misses(secret, 10)
    for i, code in enumerate(codes):
        result = await slash(fake_discord, bot, world, "guess", user=players[i % 3], code=code)
        assert not result.ephemeral, result.embed
    assert result.embed["title"] == "Out of guesses: the code wins"

    boards = await fake_discord.wait_until(
        lambda: (found := board_messages(fake_discord, world.general)) and len(found) == 1
        and found, what="one board left in the channel")
    assert boards[0].id == result.message.id
    # The others shrank to the move each answered: a readable trail, one line each.
    trail = [m.content for m in fake_discord.messages(world.general, include_ephemeral=False)
             if not m.embeds]
    assert len(trail) == 10 and "Game #1 started" in trail[0]
    for turn, (line, code) in enumerate(zip(trail[1:], codes[:9], strict=True), 1):
        assert "\n" not in line and f"`{turn:>2}`" in line and f"`{code}`" in line
    assert all(not m.components for m in fake_discord.messages(world.general)
               if not m.embeds)
    fake_discord.assert_no_violations()


@pytest.mark.both_databases
async def test_a_late_board_never_replaces_a_newer_one(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    await slash(fake_discord, bot, world, "mastermind new")
    secret = secret_of(db_path, world.general.id)
    first, second = misses(secret, 2)
    await slash(fake_discord, bot, world, "guess", code=first)
    await slash(fake_discord, bot, world, "guess", code=second)
    game = snapshot(db_path)["games"][0]
    # a board showing one move arriving after the board of two: it is the one collapsed
    assert await bot.services.games.swap_board(game["id"], 1, 1) == (1, 1)
    stored = snapshot(db_path)["games"][0]
    assert stored["board_message_id"] == game["board_message_id"] and stored["board_turn"] == 2


# ---- endings ---------------------------------------------------------------------------------
async def test_a_win_has_a_headline_and_a_spoiler_free_share_grid(fake_discord, start_bot, world,
                                                                  db_path):
    bot = await start_bot()
    await slash(fake_discord, bot, world, "mastermind new")
    secret = secret_of(db_path, world.general.id)
    codes = misses(secret, 2)
    for code in codes:
        await slash(fake_discord, bot, world, "guess", user=world.bob, code=code)
    won = await slash(fake_discord, bot, world, "guess", code=secret)
    embed = won.embed
    assert embed["title"] == "Code broken in 3 guesses!"
    assert f"<@{world.alice.id}> cracked it on guess 3 of 10" in embed["description"]
    grid = embed["description"].split("\n\n")[-1].splitlines()
    assert grid[0] == "Mastermind 4x6 3/10"
    assert grid[1:] == [share_row(score(secret, c), 4) for c in [*codes, secret]]
    assert grid[-1] == SHARE_BLACK * 4
    # key pegs only: no digit, no code peg, nothing but the three share emoji
    assert not re.search(r"\d", "".join(grid[1:]))
    assert set(emoji_in("".join(grid[1:]))) <= {SHARE_BLACK, SHARE_WHITE,
                                                SHARE_EMPTY.replace("\ufe0f", "")}
    assert not set(PEG_EMOJI) & set(emoji_in("\n".join(grid)))
    assert all(legible(e) for e in emoji_in("".join(grid)))  # on both themes
    assert "Guesses left" not in str(embed)  # nothing left to count

    await slash(fake_discord, bot, world, "mastermind new", max_guesses=1)
    lost = await slash(fake_discord, bot, world, "guess",
                       code=misses(secret_of(db_path, world.general.id), 1)[0])
    assert "Mastermind 4x6 X/1" in lost.embed["description"]


async def test_play_again_starts_the_same_rules_once(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    await slash(fake_discord, bot, world, "mastermind new", pegs=5, colors=7, max_guesses=12,
                repeats=False)
    ended = await slash(fake_discord, bot, world, "mastermind quit")
    again = next(c for c in ended.message.custom_ids if c.startswith("mmb:again:"))
    clicked = await fake_discord.click(bot, ended.message, again, user=world.bob)
    assert not clicked.ephemeral and clicked.embed["title"] == "Mastermind: break the code!"
    games = snapshot(db_path)["games"]
    assert len(games) == 2 and games[1]["started_by"] == world.bob.id
    rules = [(g["pegs"], g["colors"], g["max_guesses"], g["repeats"]) for g in games]
    assert rules == [(5, 7, 12, 0), (5, 7, 12, 0)]

    fake_discord.expect_violation(40060)  # Discord refuses the second answer
    await fake_discord.redeliver(bot, clicked)  # the same click delivered twice
    assert len(snapshot(db_path)["games"]) == 2
    twice = await fake_discord.click(bot, ended.message, again, user=world.alice)
    assert twice.ephemeral and "already running" in twice.embed["description"]
    assert len(snapshot(db_path)["games"]) == 2
    forged = await fake_discord.click(bot, fake_discord.old_message(world.general,
                                                                   ["mmb:again:x"]),
                                      "mmb:again:x", user=world.alice)
    assert forged.ephemeral and "out of date" in forged.embed["title"]


# ---- compact rows and names ------------------------------------------------------------------
async def test_rows_stay_one_line_and_names_are_cut_then_escaped(fake_discord, start_bot, world,
                                                                 db_path):
    bot = await start_bot()
    sly = fake_discord.member(world.guild, fake_discord.user("sly"),
                              nick="**@everyone** <@1> " + "_" * 30)
    await slash(fake_discord, bot, world, "mastermind new", pegs=8, colors=9)
    secret = secret_of(db_path, world.general.id)
    row = await slash(fake_discord, bot, world, "guess", user=sly,
                      code=misses(secret, 1, colors=9)[0])
    line = row.embed["description"].splitlines()[0]
    assert line.startswith("-# ")  # past 5 pegs: small text, one line on a phone
    name = line.rsplit("` ", 1)[1]
    assert name == "\\*\\*@ev\N{HORIZONTAL ELLIPSIS}"  # cut to 6 characters, then escaped
    await slash(fake_discord, bot, world, "guess", user=sly, code=secret)

    await slash(fake_discord, bot, world, "mastermind new")
    classic = await slash(fake_discord, bot, world, "guess",
                          code=misses(secret_of(db_path, world.general.id), 1)[0])
    assert not classic.embed["description"].startswith("-#")
    assert classic.embed["description"].endswith(" alice")

    top = await slash(fake_discord, bot, world, "leaderboard", size="8x9", user=sly)
    first = top.embed["description"].splitlines()[0]
    shown = re.search(r"\*\*(.*)\*\* · ", first)[1]
    assert not re.search(r"(?<!\\)<@", first) and "@everyone" not in first  # escaped
    assert not shown.endswith("\\")  # cut before escaping: no half escape opens bold
    assert len(shown.replace("\\", "").replace("\u200b", "")) <= 24
    stats = await slash(fake_discord, bot, world, "stats", user=sly, size="8x9",
                        options={"user": None})
    assert stats.embed["title"].startswith("Stats for \\*\\*@\u200beveryone\\*\\* \\<@1>")
    fake_discord.assert_no_violations()


# ---- the challenge board ---------------------------------------------------------------------
async def test_the_challenge_board_leads_with_the_guess(fake_discord, start_bot, world):
    bot = await start_bot()
    started = await slash(fake_discord, bot, world, "challenge", strategy="knuth")
    board = started.message
    assert board.flags & (1 << 15) and not board.embeds  # Components V2: the buttons inside
    assert board_title(board) == "My guess 1 of 10"
    lines = board.text.splitlines()
    assert lines[0].startswith("**My guess 1 of 10** · <@") and "how does it score" in lines[0]
    assert lines[1].startswith("## ") and "`1122`" in lines[1]  # large, right after it
    assert "at most 5 guesses at 4x6" in board.text  # the strategy's idea, on the first board
    # the guess, the question, then the reply buttons; the key and the strategy below them
    container = board.components[0]
    kinds = [c["type"] for c in container["components"]]
    assert kinds[0] == 10 and kinds[-1] == 10 and set(kinds[1:-2]) == {1}
    assert "Colours" in container["components"][-1]["content"]
    assert "right colour, right place" in lines[2] and "/feedback" in lines[2]  # in full, once

    rows = [[b for b in row["components"] if b["custom_id"].startswith("mmc:r:")]
            for row in container["components"] if row["type"] == 1]
    labels = [[b["label"] for b in row] for row in rows if row]
    # A line for each count of right colours (black + white), black growing along it (1122
    # can't score 1●3○ or 3●1○):
    assert labels == [["none", "1○", "1●"], ["2○", "1●1○", "2●"],
                      ["3○", "1●2○", "2●1○", "3●"], ["4○", "2●2○", "4●"]]
    win = next(b for row in rows for b in row if b["label"] == "4●")
    assert win["style"] == 3  # green
    reveal = board.component(label="Reveal my code")
    assert reveal["style"] == 4  # red: it ends the game

    await fake_discord.click(bot, board, f"mmc:r:{_game(board)}:1:0:1", user=world.alice)
    board = fake_discord.message(board.id)
    assert board.component(label="Take back")["style"] == 2  # grey: harmless
    # Below the buttons: the reply rows (no heading), the status without the rules or the
    # colour key (the first board has them): a turn fits a 400 px phone screen.
    history = board.components[0]["components"][-1]["content"]
    assert "Your replies" not in board.text and "4 pegs" not in history
    assert len(history.splitlines()) == 1 + 1  # one reply row, the status
    assert "Colours" not in board.text and "/feedback" not in board.text
    assert "at most 5 guesses" not in board.text  # the strategy's idea: first board, help
    await slash(fake_discord, bot, world, "mastermind quit")

    big = await slash(fake_discord, bot, world, "challenge", pegs=8, colors=9, max_guesses=20,
                      strategy="knuth")
    board = big.message
    assert "4x6" not in board.text  # no 4x6 promise on an 8x9 board
    assert board.text.splitlines()[1].startswith("### ")
    assert "**step 1 of 2**" in board.text
    step = next(c for c in board.custom_ids if c.startswith("mmc:b:") and c.endswith(":2"))
    await fake_discord.click(bot, board, step, user=world.alice)
    board = fake_discord.message(board.id)
    assert "**step 2 of 2**: you picked **2 black**" in board.text
    labels = [b["label"] for b in board.buttons if b["custom_id"].startswith("mmc:r:")]
    assert labels and all(label.startswith("2●") for label in labels)
    fake_discord.assert_no_violations()


async def test_a_challenge_turn_keeps_to_a_phone_screen(fake_discord, start_bot, world):
    """The layout that keeps a 4x6 turn within 640 px on a 400 px phone while it shows up
    to four replies (bench/ux_heights.py measures it: 571-628 px, docs/playing.md): three
    lines above the buttons, four lines of replies (every one a single tap) and the
    controls, then a line per reply and one status line."""
    bot = await start_bot()
    board = (await slash(fake_discord, bot, world, "challenge")).message
    for turn in range(1, 6):
        found = CHALLENGE_TURN.search(board.text)
        assert found and int(found[1]) == turn, board.text
        parts = board.components[0]["components"]
        question, rows, history = parts[0], parts[1:-2], parts[-1]
        assert [p["type"] for p in parts[-2:]] == [14, 10]  # a separator, then the history
        assert len(question["content"].splitlines()) == 3  # the question, the guess, the key
        replies = [r for r in rows if r["components"][0]["custom_id"].startswith("mmc:r:")]
        assert len(rows) == len(replies) + 1 and len(replies) <= 4  # the controls' own line
        assert all(len(r["components"]) <= 4 for r in rows)  # four fit a phone, none wraps
        offered = {c for c in board.custom_ids if c.startswith("mmc:r:")}
        assert {b["custom_id"] for r in replies for b in r["components"]} == offered
        assert len(offered) == len(possible_feedbacks(Rules(), found[2]))  # each one tap
        assert len(history["content"].splitlines()) == (2 if turn == 1 else turn)
        fb = score("3632", found[2])
        if fb.black == 4:
            break
        await fake_discord.click(bot, board, f"mmc:r:{_game(board)}:{turn}:{fb.black}:"
                                 f"{fb.white}", user=world.alice)
        board = fake_discord.message(board.id)
    assert turn == 5  # four replies shown on the last turn: the measured worst


async def test_feedback_shrinks_the_old_challenge_board(fake_discord, start_bot, world,
                                                        db_path):
    bot = await start_bot()
    started = await slash(fake_discord, bot, world, "challenge", strategy="knuth")
    await slash(fake_discord, bot, world, "feedback", black=0, white=1)
    old = await fake_discord.wait_until(
        lambda: (m := fake_discord.message(started.message.id)) and not is_board(m) and m,
        what="the old board to shrink")
    assert "`1122`" in old.text and "`1○`" in old.text and old.buttons == []
    assert "\n" not in old.text  # one line
    assert len(board_messages(fake_discord, world.general)) == 1
    with dbtools.connect(db_path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM challenge_replies").fetchone() == (1,)


async def test_a_finished_challenge_offers_the_same_challenge_again(fake_discord, start_bot,
                                                                    world, db_path):
    bot = await start_bot()
    started = await slash(fake_discord, bot, world, "challenge", pegs=3, colors=5,
                          max_guesses=7, strategy="entropy")
    await slash(fake_discord, bot, world, "mastermind quit")
    board = await fake_discord.wait_until(
        lambda: (m := fake_discord.message(started.message.id)) and any(
            c.startswith("mmc:again:") for c in m.custom_ids) and m,
        what="the finished board's Play again")
    again = next(c for c in board.custom_ids if c.startswith("mmc:again:"))
    clicked = await fake_discord.click(bot, board, again, user=world.bob)
    assert not clicked.ephemeral and board_title(clicked.message) == "My guess 1 of 7"
    games = snapshot(db_path)["games"]
    assert [(g["pegs"], g["colors"], g["max_guesses"], g["strategy"], g["started_by"])
            for g in games] == [(3, 5, 7, "entropy", world.alice.id),
                                (3, 5, 7, "entropy", world.bob.id)]


async def test_pegs_copied_from_a_board_are_read_as_digits(fake_discord, start_bot, world,
                                                           db_path):
    bot = await start_bot()
    await slash(fake_discord, bot, world, "mastermind new")
    secret = secret_of(db_path, world.general.id)
    code = misses(secret, 1)[0]
    typed = "".join(PEG_EMOJI[int(d) - 1] for d in code)
    result = await slash(fake_discord, bot, world, "guess", code=typed)
    assert not result.ephemeral, result.embed
    assert [g["code"] for g in snapshot(db_path)["guesses"]] == [code]


async def test_a_board_shown_while_the_disk_is_full_is_still_shown(fake_discord, start_bot,
                                                                   world, db_path,
                                                                   monkeypatch):
    bot = await start_bot()
    await slash(fake_discord, bot, world, "mastermind new")

    async def full(*args):
        raise StorageUnavailable("disk full")

    monkeypatch.setattr(bot.services.games, "swap_board", full)
    shown = await slash(fake_discord, bot, world, "mastermind board", user=world.bob)
    assert not shown.ephemeral and shown.embed["title"] == "Mastermind: break the code!"
    assert len(board_messages(fake_discord, world.general)) == 2  # nothing tidied, nothing lost


async def test_an_abandoned_board_stops_looking_live(fake_discord, start_bot, world, db_path,
                                                     wall_clock):
    bot = await start_bot()
    old = await slash(fake_discord, bot, world, "challenge", strategy="knuth")
    wall_clock.advance(24 * 3600 + 1)
    fresh = await slash(fake_discord, bot, world, "mastermind new", user=world.bob)
    assert "abandoned" in fresh.embed["description"]
    shrunk = await fake_discord.wait_until(
        lambda: (m := fake_discord.message(old.message.id)) and not is_board(m) and m,
        what="the abandoned board to shrink")
    assert "abandoned" in shrunk.text and shrunk.buttons == []
    assert len(board_messages(fake_discord, world.general)) == 1
