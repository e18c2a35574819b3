"""The Analyse button on finished games, through discord.py's real dispatch."""

from __future__ import annotations

import io

import dbtools
from conftest import secret_of
from PIL import Image

from bot.features.analysis.chart import BOT, YOU, codes_left_chart
from engine import CLASSIC, Feedback, code_from_digits, score_codes
from engine.analysis import analyse


async def play_to_the_end(fake, bot, world, db_path, guesses):
    await fake.slash(bot, "mastermind new", user=world.alice, channel=world.general,
                     guild=world.guild)
    secret = secret_of(db_path, world.general.id)
    played = [g for g in guesses if g != secret] + [secret]
    result = None
    for code in played:
        result = await fake.slash(bot, "guess", user=world.alice, channel=world.general,
                                  guild=world.guild, code=code)
    return secret, played, result


async def test_analyse_a_won_game_privately(fake_discord, start_bot, world, db_path):
    bot = await start_bot()
    secret, played, won = await play_to_the_end(fake_discord, bot, world, db_path,
                                                ["1122", "3456"])
    assert "mma:g:1" in won.message.custom_ids and not won.ephemeral
    clicked = await fake_discord.click(bot, won.message, label="Analyse", user=world.bob)
    assert clicked.ephemeral
    embed = clicked.embed
    assert embed["title"] == "Analysis · Game #1 · 4x6"
    turns = [(code_from_digits(c), score_codes(code_from_digits(secret), code_from_digits(c)))
             for c in played]
    expected = analyse(CLASSIC, turns, secret=code_from_digits(secret))
    lines = embed["description"].split("\n")
    assert len(lines) == len(expected.moves)
    for line, move in zip(lines, expected.moves, strict=True):
        assert f"{move.before:,}→**{move.after:,}**" in line
        average = f"{move.average:,.0f}" if move.average >= 10 else f"{move.average:.1f}"
        assert f"≤{move.worst:,} ~{average}" in line
        assert move.verdict in line
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Skill"] == f"**{expected.skill}**/100"
    assert fields["Luck"] == f"**{expected.luck}**/100"
    assert " → ".join(f"{n:,}" for n in expected.bot_path) in fields["Codes left per guess"]
    assert embed["image"]["url"] == "attachment://analysis.png"
    assert [a["filename"] for a in clicked.message.attachments] == ["analysis.png"]
    assert clicked.message.attachments[0]["size"] > 1000
    # Anyone may ask again; each answer is theirs alone.
    again = await fake_discord.click(bot, won.message, label="Analyse", user=world.alice)
    assert again.ephemeral and again.embed["title"] == embed["title"]


async def test_a_running_game_is_not_analysed(fake_discord, start_bot, world):
    bot = await start_bot()
    started = await fake_discord.slash(bot, "mastermind new", user=world.alice,
                                       channel=world.general, guild=world.guild)
    assert not [c for c in started.message.custom_ids if c.startswith("mma:")]  # not yet
    forged = fake_discord.old_message(world.general, ["mma:g:1"])
    result = await fake_discord.click(bot, forged, "mma:g:1", user=world.bob)
    assert result.ephemeral and result.embed["title"] == "This game is still running"


async def test_unreadable_analyse_buttons(fake_discord, start_bot, world):
    bot = await start_bot()
    for custom_id in ("mma:g:99", "mma:x", "mma:g:99999999999999999999"):
        forged = fake_discord.old_message(world.general, [custom_id])
        result = await fake_discord.click(bot, forged, custom_id, user=world.bob)
        assert result.ephemeral and result.embed["title"] == "That button is out of date"


async def test_a_quit_game_has_the_button_too(fake_discord, start_bot, world):
    bot = await start_bot()
    await fake_discord.slash(bot, "mastermind new", user=world.alice, channel=world.general,
                             guild=world.guild)
    await fake_discord.slash(bot, "guess", user=world.alice, channel=world.general,
                             guild=world.guild, code="1234")
    ended = await fake_discord.slash(bot, "mastermind quit", user=world.alice,
                                     channel=world.general, guild=world.guild)
    clicked = await fake_discord.click(bot, ended.message, label="Analyse", user=world.alice)
    assert clicked.ephemeral and clicked.embed["description"].count("\n") == 0


def test_the_chart_draws_both_lines():
    png = codes_left_chart(1296, (96, 16, 7, 1), (96, 18, 2, 1, 1))
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.size == (640, 300)
    colours = {c for _, c in image.getcolors(maxcolors=1 << 20)}
    assert YOU in colours and BOT in colours
    lone = Image.open(io.BytesIO(codes_left_chart(1296, (208,), ()))).convert("RGB")
    assert BOT not in {c for _, c in lone.getcolors(maxcolors=1 << 20)}


async def test_help_defines_skill_and_luck(fake_discord, start_bot, world):
    bot = await start_bot()
    shown = await fake_discord.slash(bot, "mastermind help", user=world.alice,
                                     channel=world.general, guild=world.guild)
    await fake_discord.click(bot, shown.message, "mmh:more", user=world.alice)  # its page
    more = fake_discord.message(shown.message.id)
    field = next(f for f in more.embed["fields"] if f["name"].startswith("Analyse"))
    assert "**Skill** (0-100)" in field["value"] and "**Luck** (0-100)" in field["value"]
    assert "50 is average luck" in field["value"]


async def test_analyse_a_challenge_judges_the_bot(fake_discord, start_bot, world, db_path):
    """The bot breaks alice's code (replies by /feedback); Analyse judges the bot's guesses
    against the solver (Knuth's), number by number as the engine gives them."""
    import contextlib

    bot = await start_bot()
    secret = "6613"
    await fake_discord.slash(bot, "challenge", user=world.alice, channel=world.general,
                             guild=world.guild)
    for _ in range(10):
        with contextlib.closing(dbtools.connect(db_path)) as conn:
            (gid, pending, status), = conn.execute(
                "SELECT id, pending_guess, status FROM games").fetchall()
        if status != "active":
            break
        fb = score_codes(code_from_digits(secret), code_from_digits(pending))
        await fake_discord.slash(bot, "feedback", user=world.alice, channel=world.general,
                                 guild=world.guild, black=fb.black, white=fb.white)
    assert status == "won"
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        replies = conn.execute("SELECT guess, black, white FROM challenge_replies"
                               " WHERE taken_back_at IS NULL ORDER BY turn").fetchall()
    turns = [(code_from_digits(g), Feedback(b, w)) for g, b, w in replies]
    expected = analyse(CLASSIC, turns, secret=code_from_digits(secret))
    forged = fake_discord.old_message(world.general, [f"mma:g:{gid}"])
    clicked = await fake_discord.click(bot, forged, f"mma:g:{gid}", user=world.bob)
    assert clicked.ephemeral
    assert clicked.embed["title"] == f"Analysis · Challenge #{gid} · 4x6"
    fields = {f["name"]: f["value"] for f in clicked.embed["fields"]}
    assert fields["Skill"] == f"**{expected.skill}**/100"
    assert fields["Codes left per guess"].startswith("the bot: " + " → ".join(
        f"{n:,}" for n in expected.you_path))
    for line, move in zip(clicked.embed["description"].split("\n"), expected.moves,
                          strict=True):
        assert f"{move.before:,}→**{move.after:,}**" in line and move.verdict in line
