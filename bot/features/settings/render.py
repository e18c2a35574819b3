"""The private settings summary: every setting, what just changed, and who changed what.

The change log keeps each value in English words (as stored since the first settings); the
summary reads them back into the reader's language (:func:`logged_words`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import discord

from engine import InvalidRules, Rules
from i18n import tr, trn

from ...core.durations import hours
from ...core.enums import Seasons, Setting
from ...core.records import SettingChange
from ...ui.messages import mention, says
from .errors import BadSetting, ChannelNotAllowed
from .service import LANGUAGES, SEASON_WORDS, ServerSettings, describe, server_language_words

Words = Callable[[], str]
#: Each setting's field title in the summary, by its name in :func:`describe` and the log.
TITLES: dict[Setting, Words] = {
    Setting.HINTS: lambda: tr("Hints (/mastermind hint)"),
    Setting.RULES: lambda: tr("Default rules for /mastermind new"),
    Setting.IDLE_TIMEOUT: lambda: tr("Idle timeout"),
    Setting.CHANNELS: lambda: tr("Games allowed in"),
    Setting.DAILY_RESULTS: lambda: tr("Daily results (/daily share)"),
    Setting.LANGUAGE: lambda: tr("Language of public boards"),
    Setting.SEASONS: lambda: tr("Rating seasons"),
    Setting.PAIR_CAP: lambda: tr("Rated games per pair a day"),
    Setting.RACE_TIME: lambda: tr("Race time limit")}
#: A setting's name in a change log line ("hints: on → off").
LOG_NAMES: dict[Setting, Words] = {
    Setting.HINTS: lambda: tr("hints"), Setting.RULES: lambda: tr("rules"),
    Setting.IDLE_TIMEOUT: lambda: tr("idle timeout"), Setting.CHANNELS: lambda: tr("channels"),
    Setting.DAILY_RESULTS: lambda: tr("daily results"), Setting.LANGUAGE: lambda: tr("language"),
    Setting.SEASONS: lambda: tr("rating seasons"),
    Setting.PAIR_CAP: lambda: tr("rated games per pair a day"),
    Setting.RACE_TIME: lambda: tr("race time limit")}
#: The log's values that are one phrase (as :func:`describe` says them in English).
FIXED_WORDS: dict[str, Words] = {
    "on": lambda: tr("on"), "off": lambda: tr("off"),
    "every channel": lambda: tr("every channel"),
    "posted when shared": lambda: tr("posted when shared"),
    "kept private": lambda: tr("kept private"),
    "the server's own language": server_language_words,
    "off (one rating for ever)": SEASON_WORDS[Seasons.OFF],
    "monthly": SEASON_WORDS[Seasons.MONTHLY], "quarterly": SEASON_WORDS[Seasons.QUARTERLY]}

_RULES = re.compile(r"(\d+) pegs? · (\d+) colou?rs? · (\d+) guess(?:es)? · (repeats on|no repeats)")
_HOURS = re.compile(r"(\d+(?:\.\d+)?) hours?")
#: The log's numbers of a count a day, and of minutes (as :func:`describe` says them).
_COUNTS: dict[Setting, tuple[re.Pattern[str], Callable[[int], str]]] = {
    Setting.PAIR_CAP: (re.compile(r"(\d+) a day"),
                       lambda n: trn("{count} a day", "{count} a day", n)),
    Setting.RACE_TIME: (re.compile(r"(\d+) minutes?"),
                        lambda n: trn("{count} minute", "{count} minutes", n))}


def logged_words(name: Setting, text: str | None) -> str:
    """A value as the log stored it (English words), said in the reader's language; text it
    can't read back is shown as stored."""
    if not text:
        return "—"
    if text in FIXED_WORDS:
        return FIXED_WORDS[text]()
    if name is Setting.RULES and (found := _RULES.fullmatch(text)):
        pegs, colors, max_guesses = (int(found[i]) for i in (1, 2, 3))
        try:
            return Rules(pegs, colors, max_guesses, found[4] == "repeats on").describe()
        except InvalidRules:
            return text
    if name in _COUNTS and (found := _COUNTS[name][0].fullmatch(text)):
        return _COUNTS[name][1](int(found[1]))
    if name is Setting.IDLE_TIMEOUT:
        value, _, default = text.partition(" (")
        if found := _HOURS.fullmatch(value):
            shown = hours(float(found[1]) * 3600)
            return tr("{hours} (the bot's default)", hours=shown) if default else shown
    return text


def _language_words(settings: ServerSettings, server_locale: str | None) -> str:
    """The language set, or the server's own with its name (what Discord reports)."""
    if settings.language:
        return LANGUAGES[settings.language]
    return tr("{setting} (now {language})", setting=server_language_words(),
              language=LANGUAGES[server_locale or "en"])


def settings_embed(server: str, settings: ServerSettings, default_idle_hours: float,
                   changed: list[Setting], log: list[SettingChange],
                   server_locale: str | None = None) -> discord.Embed:
    """The summary; ``server_locale``: the catalog the public boards speak now."""
    words = describe(settings, default_idle_hours)
    words[Setting.LANGUAGE] = _language_words(settings, server_locale)
    embed = discord.Embed(title=tr("Mastermind settings · {server}", server=server)[:256],
                          colour=discord.Colour.dark_teal())
    embed.description = (
        tr("Changed: {settings}.", settings=", ".join(LOG_NAMES[n]() for n in changed))
        if changed else tr("Nothing changed. Give an option to change a setting."))
    for key, title in TITLES.items():
        embed.add_field(name=title(), value=words[key][:1024], inline=key is not Setting.CHANNELS)
    if log:
        lines = [f"<t:{int(c.changed_at)}:R> {mention(c.user_id)} "
                 f"{LOG_NAMES[c.name]()}: "
                 f"{logged_words(c.name, c.old)} → {logged_words(c.name, c.new)}" for c in log]
        embed.add_field(name=tr("Recent changes"), value="\n".join(lines)[:1024], inline=False)
    embed.set_footer(text=tr("Only you see this · Manage Server can change these"))
    return embed


@says(BadSetting)
def _bad_setting(error: BadSetting) -> tuple[str, str]:
    reason = error.reason[:1].upper() + error.reason[1:]
    return tr("That setting doesn't work"), tr("{reason}. Nothing changed.", reason=reason)


@says(ChannelNotAllowed)
def _not_here(error: ChannelNotAllowed) -> tuple[str, str]:
    places = ", ".join(f"<#{c}>" for c in error.allowed)
    return tr("No games in this channel"), tr(
        "This server plays Mastermind in {channels}. Nothing was started here: use one of "
        "those (Manage Server can change the list with `/mastermind settings`).",
        channels=places)
