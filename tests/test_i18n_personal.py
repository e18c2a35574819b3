"""The personal features in the player's language, through discord.py's real dispatch: the
daily, /stats and the leaderboards, a puzzle, the analysis, and the server's language setting.

Ephemeral answers speak the user's locale; what the channel sees speaks the server's (its
``/mastermind settings language``, else its Discord locale). Expected words are the
catalogs' own, read with ``speaking``: no translation is written here.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gettext
import json

import dbtools
import discord
import pytest
from babel.messages.pofile import read_po
from conftest import without_drawn_pegs
from picking import open_picker, pick, tap

from bot.core.enums import Mode, Period
from bot.features.analysis.chart import codes_left_chart, draws, font_for, load_font
from bot.features.analysis.service import PLAYERS
from bot.features.daily.service import secret_for
from bot.features.puzzle.render import LEVEL_WORDS
from bot.features.settings.errors import BadSetting
from bot.features.settings.service import (
    LANGUAGES,
    Changes,
    ServerSettings,
    apply,
    server_language_words,
)
from bot.features.stats.render import MODE_NAMES, PERIOD_NAMES
from bot.ui.pegs import code_line
from engine import code_from_digits, format_code
from engine.puzzle import Level
from i18n import speaking, tr, trn
from i18n.catalogs import LOCALES_DIR
from i18n.numbers import day as show_day
from i18n.numbers import number, percent

DAY = 24 * 3600


def rows(db_path, sql, args=()):
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        return [tuple(r) for r in conn.execute(sql, args).fetchall()]


def day_of(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts, tz=dt.UTC).date().isoformat()


def daily_code(db_path, day: str) -> str:
    """A day's code worked out from the stored seed alone, as the bot must."""
    (seed,), = rows(db_path, "SELECT value FROM bot_settings WHERE name = 'daily_seed'")
    return format_code(secret_for(seed, day))


def miss(secret: str) -> str:
    return next(c for c in ("1122", "3344", "5566") if c != secret)


def fields(embed) -> dict[str, str]:
    return {f["name"]: f["value"] for f in embed.get("fields", [])}


async def slash(fake, bot, world, command, user=None, **options):
    return await fake.slash(bot, command, user=user or world.alice, channel=world.general,
                            guild=world.guild, **options)


def standing_line(solved: int, finished: int, rank: int) -> str:
    return " · ".join((tr("{solved} of {finished} solved", solved=solved, finished=finished),
                       tr("you are #{rank}", rank=rank)))


@pytest.mark.parametrize(("mine", "server"), [("de", "ja"), ("ja", "de")])
async def test_the_daily_speaks_its_player_and_posts_in_the_servers_language(
        fake_discord, start_bot, world, db_path, wall_clock, mine, server):
    bot = await start_bot()
    world.guild.locale = server
    world.alice.user.locale = mine
    day = day_of(wall_clock.now)
    secret = daily_code(db_path, day)

    empty = await slash(fake_discord, bot, world, "daily play")
    assert empty.ephemeral
    with speaking(mine):
        assert empty.embed["title"] == tr("Daily code · {day}", day=show_day(day))
        assert tr("*No guesses yet.*") in empty.embed["description"]
        guess = tr("Guess")
    assert show_day(day) == day  # English keeps the ISO day; the others write their own
    with speaking(mine):
        assert show_day(day) != day

    first = await slash(fake_discord, bot, world, "daily play", guess=miss(secret))
    assert first.ephemeral and secret not in without_drawn_pegs(json.dumps(first.embed))
    _, picker = await open_picker(fake_discord, bot, first.message, world.alice, label=guess)
    with speaking(mine):
        assert tr("**Daily {day}** · only you see this board", day=show_day(day)) in (
            picker.content)
        assert tr("**{title}** · {left} of {total} left", title=tr("Your guess"), left=9,
                  total=10) in picker.content
    picker, _ = await pick(fake_discord, bot, picker, secret, world.alice)
    await tap(fake_discord, bot, picker, "s", world.alice)
    won = fake_discord.message(picker.id)
    with speaking(mine):
        assert won.embed["title"] == trn("Daily {day}: broken in {count} guess!",
                                         "Daily {day}: broken in {count} guesses!", 2,
                                         day=show_day(day))
        assert fields(won.embed)[tr("Today, this server")] == standing_line(1, 1, 1)
        assert fields(won.embed)[tr("Today, all servers")] == standing_line(1, 1, 1)
        analyse = tr("Analyse")

    # The same moves in English store exactly the same rows.
    await slash(fake_discord, bot, world, "daily play", user=world.bob, guess=miss(secret))
    await slash(fake_discord, bot, world, "daily play", user=world.bob, guess=secret)
    by_player = {user: rows(db_path, "SELECT turn, code, black, white FROM daily_guesses"
                                     " WHERE user_id = ? ORDER BY turn", (user,))
                 for user in (world.alice.id, world.bob.id)}
    assert by_player[world.alice.id] == by_player[world.bob.id] != []

    # The channel reads the share and the day's board in the server's language.
    shared = await slash(fake_discord, bot, world, "daily share")
    assert not shared.ephemeral
    with speaking(server):
        assert shared.message.content.startswith(tr(
            "**Mastermind daily {day}** · {score}/{total} · {player}", day=show_day(day),
            score=2, total=10, player=f"<@{world.alice.id}>"))
    board = await slash(fake_discord, bot, world, "daily leaderboard")
    assert not board.ephemeral
    with speaking(server):
        assert board.embed["title"] == tr("Daily {day} · {scope}", day=show_day(day),
                                          scope=world.guild.name)
        first_line = board.embed["description"].split("\n")[0]
        assert first_line.endswith(trn("{count} guess", "{count} guesses", 2))

    # Her own answers stay in her language: a second try, and the analysis.
    again = await slash(fake_discord, bot, world, "daily play", guess=secret)
    analysed = await fake_discord.click(bot, won, label=analyse, user=world.alice)
    with speaking(mine):
        assert again.ephemeral and again.embed["title"] == tr("Already played today")
        assert analysed.ephemeral and analysed.embed["title"] == tr(
            "Analysis · {game} · {size}", game=tr("Daily {day}", day=show_day(day)),
            size="4x6")
        assert fields(analysed.embed)[tr("Codes left per guess")].startswith(
            PLAYERS["you"]() + ":")
        assert tr("Skill") in fields(analysed.embed)


async def play_a_game(fake, bot, world, db_path, player) -> None:
    """A classic game cracked on the second guess."""
    await slash(fake, bot, world, "mastermind new", user=player)
    (secret,), = rows(db_path, "SELECT secret FROM games WHERE status = 'active'")
    await slash(fake, bot, world, "guess", user=player, code=miss(secret))
    await slash(fake, bot, world, "guess", user=player, code=secret)


@pytest.mark.parametrize("server", ["de", "ja"])
async def test_stats_and_the_leaderboard_speak_the_servers_language(
        fake_discord, start_bot, world, db_path, server):
    bot = await start_bot()
    world.guild.locale = server
    world.bob.user.locale = "fr"  # his own pages of the board speak French
    await play_a_game(fake_discord, bot, world, db_path, world.alice)

    stats = await slash(fake_discord, bot, world, "stats", options={"user": None})
    assert not stats.ephemeral
    shown = fields(stats.embed)
    with speaking(server):
        assert stats.embed["title"] == tr("Stats for {player} · {size}", player="alice",
                                          size="4x6")
        assert shown[tr("Codes cracked")] == trn("{won} of {count} game ({rate})",
                                                 "{won} of {count} games ({rate})", 1,
                                                 won="1", rate=percent(1.0))
        assert shown[tr("Guesses per crack")] == number(2.0, 2)
        assert shown[tr("Daily streak")] == tr(
            "none yet: `/daily play` is today's code, the same for everyone")
    with speaking("de"):
        assert number(2.0, 2) == "2,00"  # the German decimal comma, from CLDR

    board = await slash(fake_discord, bot, world, "leaderboard")
    assert not board.ephemeral
    with speaking(server):
        assert board.embed["title"] == " · ".join((
            MODE_NAMES[Mode.BREAKER](), world.guild.name, PERIOD_NAMES[Period.ALL](), "4x6"))
        assert tr("{player}'s rank", player="alice") in fields(board.embed)
        assert board.embed["footer"]["text"].startswith(tr(
            "Page {page}/{pages} · {rule} · periods are UTC", page=1, pages=1,
            rule=tr("Ranked by codes cracked, then fewer guesses per crack")))
        labels = [b.get("label") for b in board.message.buttons]
        assert labels == [tr("◀ Prev"), tr("Next ▶")]

    # Bob pages a public board (an older one: this one has a single page, so its buttons are
    # off): his page is his alone, in his language.
    older = fake_discord.old_message(world.general, board.message.custom_ids[1:])
    page = await fake_discord.click(bot, older, board.message.custom_ids[1], user=world.bob)
    assert page.ephemeral
    with speaking("fr"):
        assert page.embed["title"] == " · ".join((
            MODE_NAMES[Mode.BREAKER](), world.guild.name, PERIOD_NAMES[Period.ALL](), "4x6"))
        assert fields(page.embed)[tr("{player}'s rank", player="bob")] == tr(
            "Not on this board yet: crack a code to get on it.")


def catalog_form(locale: str, area: str, singular: str, count: int) -> tuple[int, str]:
    """Which of the catalog's plural forms ``count`` takes in ``locale`` (the catalog's own
    Plural-Forms rule), and that form as the catalog writes it."""
    with (LOCALES_DIR / locale / f"{area}.po").open("rb") as handle:
        catalog = read_po(handle, locale=locale)
    index = gettext.c2py(catalog.plural_expr)(count)
    return index, catalog[singular].string[index].format(count=count)


@pytest.mark.parametrize("server", ["pl", "ru"])
async def test_a_daily_streak_counts_in_polish_and_russian_plural_forms(
        fake_discord, start_bot, world, db_path, wall_clock, server):
    """22 days of dailies: the streak of 1, 2, 5 and 22 days in three plural forms."""
    bot = await start_bot()
    world.guild.locale = server
    seen = {}
    for n in range(1, 23):
        day = day_of(wall_clock.now)
        played = await slash(fake_discord, bot, world, "daily play",
                             guess=daily_code(db_path, day))
        assert played.ephemeral  # alice is en-US: her board is English
        assert played.embed["title"] == f"Daily {day}: broken in 1 guess!"
        if n in (1, 2, 5, 22):
            stats = await slash(fake_discord, bot, world, "stats", options={"user": None})
            with speaking(server):
                seen[n] = fields(stats.embed)[tr("Daily streak")]
                assert seen[n] == " · ".join((
                    trn("{count} day now", "{count} days now", n),
                    trn("{count} longest", "{count} longest", n),
                    trn("{solved} of {count} daily solved", "{solved} of {count} dailies solved",
                        n, solved=str(n))))
        wall_clock.advance(DAY)
    # One, a few, many; 22 ends in 2, so it takes the form of 2 (not that of 12).
    forms = {n: catalog_form(server, "stats", "{count} day now", n) for n in seen}
    assert [forms[n][0] for n in (1, 2, 5, 22)] == [0, 1, 2, 1]
    assert all(seen[n].startswith(forms[n][1] + " · ") for n in seen)


async def test_a_puzzle_in_japanese(fake_discord, start_bot, world, db_path, wall_clock):
    bot = await start_bot()
    world.alice.user.locale = "ja"
    day = day_of(wall_clock.now)
    shown = await slash(fake_discord, bot, world, "puzzle today")
    assert shown.ephemeral
    (answer,), = rows(db_path, "SELECT answer FROM puzzle_plays")
    with speaking("ja"):
        assert shown.embed["title"] == tr("Puzzle of {day}", day=show_day(day))
        assert shown.embed["description"].startswith(tr(
            "Exactly one code gives every clue below its key pegs. Name it: **one try**."))
        assert shown.embed["footer"]["text"] == " · ".join((
            LEVEL_WORDS[Level.MEDIUM](), tr("answer with the button, or /puzzle answer code:1234")))
        label = tr("Answer")
    _, picker = await open_picker(fake_discord, bot, shown.message, world.alice, label=label)
    with speaking("ja"):
        assert tr("Your answer: one try") in picker.content
    picker, _ = await pick(fake_discord, bot, picker, answer, world.alice)
    await tap(fake_discord, bot, picker, "s", world.alice)
    solved = fake_discord.message(picker.id)
    with speaking("ja"):
        assert tr("**Solved!** {code} is the only code that fits.",
                  code=code_line(code_from_digits(answer))) in solved.embed["description"]
        assert trn("Puzzle streak: **{count}** day (best {best})",
                   "Puzzle streak: **{count}** days (best {best})", 1, best=1) in (
            solved.embed["description"])
        assert [b.get("label") for b in solved.buttons] == [tr("Another puzzle")]
    # Stored as an English player's answer is: solved, with the code named.
    assert rows(db_path, "SELECT status, named FROM puzzle_plays") == [("solved", answer)]


@pytest.fixture
def admin(fake_discord, world):
    return fake_discord.member(world.guild, fake_discord.user("admin"),
                               permissions=discord.Permissions(manage_guild=True))


async def test_the_server_language_setting_overrides_its_discord_locale(
        fake_discord, start_bot, world, db_path, admin, wall_clock):
    """A German server set to Japanese shows its public boards in Japanese; cleared, in
    German again. Stored, logged, kept across a restart; an unknown value changes nothing."""
    bot = await start_bot()
    world.guild.locale = "de"
    admin.user.locale = "ko"  # the summary is the admin's own: Korean
    day = day_of(wall_clock.now)

    async def titles() -> tuple[str, str]:
        board = await slash(fake_discord, bot, world, "leaderboard")
        daily = await slash(fake_discord, bot, world, "daily leaderboard")
        assert not board.ephemeral and not daily.ephemeral
        return board.embed["title"], daily.embed["title"]

    def expected(locale: str) -> tuple[str, str]:
        with speaking(locale):
            return (" · ".join((MODE_NAMES[Mode.BREAKER](), world.guild.name,
                                PERIOD_NAMES[Period.ALL](), "4x6")),
                    tr("Daily {day} · {scope}", day=show_day(day), scope=world.guild.name))

    assert await titles() == expected("de")

    summary = await slash(fake_discord, bot, world, "mastermind settings", user=admin,
                          language="ja")
    assert summary.ephemeral
    with speaking("ko"):
        shown = fields(summary.embed)
        assert summary.embed["description"] == tr("Changed: {settings}.",
                                                  settings=tr("language"))
        assert shown[tr("Language of public boards")] == LANGUAGES["ja"]
        assert (f"<@{admin.id}> {tr('language')}: {server_language_words()} → "
                f"{LANGUAGES['ja']}") in shown[tr("Recent changes")]
    assert rows(db_path, "SELECT language FROM server_settings") == [("ja",)]
    assert rows(db_path, "SELECT user_id, name, old_value, new_value FROM settings_log") == [
        (admin.id, "language", "the server's own language", "日本語")]
    assert await titles() == expected("ja")

    bot = await start_bot()  # a restart reads the setting back
    assert await titles() == expected("ja")

    with pytest.raises(BadSetting):  # Discord sends only the listed choices; the service
        apply(ServerSettings(), Changes(language="xx"))  # refuses any other all the same

    cleared = await slash(fake_discord, bot, world, "mastermind settings", user=admin,
                          language="server")
    with speaking("ko"):
        assert fields(cleared.embed)[tr("Language of public boards")] == tr(
            "{setting} (now {language})", setting=server_language_words(),
            language=LANGUAGES["de"])
    assert rows(db_path, "SELECT language FROM server_settings") == [(None,)]
    assert await titles() == expected("de")

    # A language this version doesn't know (written by a newer one) reads as none set.
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        conn.execute("UPDATE server_settings SET language = 'xx'")
        conn.commit()
    bot = await start_bot()
    assert await titles() == expected("de")


async def test_a_locale_without_a_catalog_reads_english(fake_discord, start_bot, world,
                                                        wall_clock):
    bot = await start_bot()
    world.guild.locale = "vi"  # Discord locales the bot ships no catalog for
    world.alice.user.locale = "hu"
    day = day_of(wall_clock.now)
    mine = await slash(fake_discord, bot, world, "daily play")
    assert mine.embed["title"] == f"Daily code · {day}"
    board = await slash(fake_discord, bot, world, "leaderboard")
    assert board.embed["title"] == "Code breakers · Mastermind Club · all time · 4x6"
    stats = await slash(fake_discord, bot, world, "stats", options={"user": None})
    assert stats.embed["title"] == "Stats for alice · 4x6"


@pytest.mark.parametrize("locale", ["de", "ru", "ja", "ko"])
def test_the_chart_draws_its_words_with_a_font_that_has_them(locale):
    """Pillow's own font has ASCII only: the chart finds one on the machine with the
    letters of the reader's words, or (none here) draws English, never empty boxes."""
    assert font_for("codes still possible 1,296") is None  # English: Pillow's own
    with speaking(locale):
        words = tr("codes still possible") + tr("guess") + tr("you") + tr("solver")
        path = font_for(words)
        png = codes_left_chart(1296, (96, 16, 1), (96, 18, 2, 1))
    assert png.startswith(b"\x89PNG")
    if path is not None:
        assert draws(load_font(13, path), words)
