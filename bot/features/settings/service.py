"""Per-server settings: hints on or off, default rules for new games, the idle timeout,
the channels that allow games, whether daily results are posted, the language of the
server's public boards, and races' and ratings' (season cadence, daily cap per pair, race
time limit).

Read on every command, so they are kept in memory (loaded at start, updated on each
change, which is one transaction with its log lines). The other features ask through the
small functions below and never see the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine import CLASSIC, InvalidRules, Rules
from i18n import SHIPPED, speaking, tr, trn

from ...core.clock import Clock, system_clock
from ...core.durations import hours
from ...core.enums import Seasons, Setting
from ...core.records import SettingChange
from ...store import Database, once
from ...store.settings import SettingsStore
from .errors import BadSetting, ChannelNotAllowed

MAX_CHANNELS = 25
LOG_LINES = 8
#: Rated games two players may play together a UTC day (``pair_cap``): the default and range.
PAIR_CAP, MIN_PAIR_CAP, MAX_PAIR_CAP = 3, 1, 20
#: A race's time limit in minutes: the default and range.
RACE_MINUTES, MIN_RACE_MINUTES, MAX_RACE_MINUTES = 10, 2, 60

#: The languages a server can choose for its public boards, each by its own name (as
#: Discord's language menu names them): English, the source, and every shipped catalog.
LANGUAGES: dict[str, str] = {
    "en": "English", "de": "Deutsch", "fr": "Français", "es_ES": "Español",
    "pt_BR": "Português do Brasil", "pl": "Polski", "ru": "Русский", "tr": "Türkçe",
    "ja": "日本語", "zh_CN": "简体中文", "ko": "한국어",
}
assert set(LANGUAGES) == {"en", *SHIPPED}, "a shipped locale without its name"
#: The ``language`` choice that clears the setting: the server's own locale again.
SERVER_LANGUAGE = "server"


def server_language_words() -> str:
    """No language set: the public boards follow the server's locale."""
    return tr("the server's own language")


#: Each season cadence in words (the log keeps them in English).
SEASON_WORDS = {
    Seasons.OFF: lambda: tr("off (one rating for ever)"),
    Seasons.MONTHLY: lambda: tr("monthly"),
    Seasons.QUARTERLY: lambda: tr("quarterly"),
}


@dataclass(frozen=True)
class ServerSettings:
    hints: bool = True
    rules: Rules = CLASSIC
    #: Hours without a move before a game is abandoned; None = the bot's default.
    idle_hours: float | None = None
    #: Channels that allow games; empty = every channel.
    channels: tuple[int, ...] = field(default=())
    daily_posts: bool = True
    #: The language of the server's public boards (a key of :data:`LANGUAGES`, e.g.
    #: ``de``); None = the server's own locale, as Discord reports it.
    language: str | None = None
    #: How often the rating season starts over.
    seasons: Seasons = Seasons.MONTHLY
    #: Rated games two players may play together a UTC day.
    pair_cap: int = PAIR_CAP
    #: A race's time limit, in minutes.
    race_minutes: int = RACE_MINUTES

    def values(self) -> dict[str, object]:
        """As stored: hints and daily posts stay NULL while on (their default)."""
        rules = self.rules
        return {"hints": None if self.hints else 0,
                "pegs": rules.pegs, "colors": rules.colors, "max_guesses": rules.max_guesses,
                "repeats": int(rules.repeats), "idle_hours": self.idle_hours,
                "channels": ",".join(map(str, self.channels)) or None,
                "daily_posts": None if self.daily_posts else 0,
                "language": self.language,
                "seasons": None if self.seasons is Seasons.MONTHLY else self.seasons.value,
                "pair_cap": None if self.pair_cap == PAIR_CAP else self.pair_cap,
                "race_minutes": None if self.race_minutes == RACE_MINUTES
                else self.race_minutes}

    @classmethod
    def from_row(cls, row: dict[str, object]) -> ServerSettings:
        def number(name: str, default: int) -> int:
            value = row.get(name)
            return int(value) if isinstance(value, int | float) else default

        rules = Rules(number("pegs", CLASSIC.pegs), number("colors", CLASSIC.colors),
                      number("max_guesses", CLASSIC.max_guesses),
                      bool(number("repeats", int(CLASSIC.repeats))))
        channels = str(row.get("channels") or "")
        idle = row.get("idle_hours")
        language = row.get("language")
        seasons = row.get("seasons")
        return cls(hints=row.get("hints") != 0, rules=rules,
                   idle_hours=float(idle) if isinstance(idle, int | float) else None,
                   channels=tuple(int(c) for c in channels.split(",") if c),
                   daily_posts=row.get("daily_posts") != 0,
                   language=language if language in LANGUAGES else None,
                   seasons=Seasons(str(seasons)) if seasons in set(Seasons) else Seasons.MONTHLY,
                   pair_cap=number("pair_cap", PAIR_CAP),
                   race_minutes=number("race_minutes", RACE_MINUTES))


def describe(settings: ServerSettings, default_idle_hours: float) -> dict[Setting, str]:
    """Each setting in words (the current locale's), by the name the summary and the change
    log use; the log keeps them in English (see :meth:`SettingsService.change`)."""
    idle = settings.idle_hours
    return {
        Setting.HINTS: tr("on") if settings.hints else tr("off"),
        Setting.RULES: settings.rules.describe(),
        Setting.IDLE_TIMEOUT: hours(idle * 3600) if idle is not None
        else tr("{hours} (the bot's default)", hours=hours(default_idle_hours * 3600)),
        Setting.CHANNELS: " ".join(f"<#{c}>" for c in settings.channels)
        or tr("every channel"),
        Setting.DAILY_RESULTS: tr("posted when shared") if settings.daily_posts
        else tr("kept private"),
        Setting.LANGUAGE: LANGUAGES[settings.language] if settings.language
        else server_language_words(),
        Setting.SEASONS: SEASON_WORDS[settings.seasons](),
        Setting.PAIR_CAP: trn("{count} a day", "{count} a day", settings.pair_cap),
        Setting.RACE_TIME: trn("{count} minute", "{count} minutes", settings.race_minutes),
    }


@dataclass(frozen=True)
class Changes:
    """What a ``/mastermind settings`` asks to change (None = leave as it is)."""

    hints: bool | None = None
    pegs: int | None = None
    colors: int | None = None
    max_guesses: int | None = None
    repeats: bool | None = None
    idle_hours: float | None = None
    allow_channel: int | None = None
    disallow_channel: int | None = None
    all_channels: bool | None = None
    daily_posts: bool | None = None
    #: A key of :data:`LANGUAGES`, or :data:`SERVER_LANGUAGE` to clear the setting.
    language: str | None = None
    seasons: Seasons | None = None
    pair_cap: int | None = None
    race_minutes: int | None = None

    @property
    def empty(self) -> bool:
        return all(v is None for v in vars(self).values())


def apply(current: ServerSettings, asked: Changes) -> ServerSettings:
    """The settings after ``asked``; raises :class:`BadSetting` (nothing changes) when they
    don't work together."""
    rules = current.rules
    try:
        rules = Rules(asked.pegs or rules.pegs, asked.colors or rules.colors,
                      asked.max_guesses or rules.max_guesses,
                      rules.repeats if asked.repeats is None else asked.repeats)
    except InvalidRules as exc:
        raise BadSetting(tr("those default rules don't work: {reason}", reason=exc)) from None
    channels = list(current.channels)
    if asked.all_channels:
        channels = []
    if asked.allow_channel is not None and asked.allow_channel not in channels:
        if len(channels) >= MAX_CHANNELS:
            raise BadSetting(trn("at most {count} channel can be listed",
                                 "at most {count} channels can be listed", MAX_CHANNELS))
        channels.append(asked.allow_channel)
    if asked.disallow_channel is not None:
        if asked.disallow_channel not in channels:
            raise BadSetting(
                tr("that channel isn't on the list: games are allowed in every channel until "
                   "you name one with allow_channel") if not channels else
                tr("that channel isn't on the list of channels that allow games"))
        channels.remove(asked.disallow_channel)
    language = current.language
    if asked.language == SERVER_LANGUAGE:
        language = None
    elif asked.language is not None:
        if asked.language not in LANGUAGES:
            raise BadSetting(tr("there is no language {language}: choose one from the list",
                                language=repr(asked.language)[:40]))
        language = asked.language
    return replace(
        current,
        hints=current.hints if asked.hints is None else asked.hints,
        rules=rules,
        idle_hours=current.idle_hours if asked.idle_hours is None else asked.idle_hours,
        channels=tuple(channels),
        daily_posts=current.daily_posts if asked.daily_posts is None else asked.daily_posts,
        language=language,
        seasons=asked.seasons or current.seasons,
        pair_cap=_within(asked.pair_cap, MIN_PAIR_CAP, MAX_PAIR_CAP) or current.pair_cap,
        race_minutes=_within(asked.race_minutes, MIN_RACE_MINUTES, MAX_RACE_MINUTES)
        or current.race_minutes)


def _within(value: int | None, low: int, high: int) -> int | None:
    """A number asked for, checked (Discord checks the range too; a forged one gets this)."""
    if value is not None and not low <= value <= high:
        raise BadSetting(tr("{value} is out of range: give a number from {low} to {high}",
                            value=value, low=low, high=high))
    return value


class SettingsService:
    def __init__(self, db: Database, *, clock: Clock = system_clock,
                 default_idle_hours: float = 24.0):
        self.db = db
        self.clock = clock
        self.default_idle_hours = default_idle_hours
        self.store = SettingsStore()
        self._cache: dict[int, ServerSettings] = {}
        #: Bumped by every change made here, so a re-read that started before it can't
        #: put the old settings back.
        self._changes = 0

    async def load(self) -> None:
        """(Re-)read every server's settings (another process may have changed them)."""
        before = self._changes
        rows = await self.store.all(await self.db.reader())
        if self._changes == before:
            self._cache = {guild: ServerSettings.from_row(row) for guild, row in rows.items()}

    def get(self, guild_id: int | None) -> ServerSettings:
        return self._cache.get(guild_id or 0, ServerSettings())

    # ---- what the other features ask --------------------------------------------------------
    def hints_allowed(self, guild_id: int | None) -> bool:
        return self.get(guild_id).hints

    def default_rules(self, guild_id: int | None) -> Rules:
        return self.get(guild_id).rules

    def idle_seconds(self, guild_id: int | None) -> float | None:
        hours = self.get(guild_id).idle_hours
        return None if hours is None else hours * 3600

    def check_channel(self, guild_id: int | None, channel_id: int) -> None:
        allowed = self.get(guild_id).channels
        if allowed and channel_id not in allowed:
            raise ChannelNotAllowed(allowed)

    def daily_posts(self, guild_id: int | None) -> bool:
        return self.get(guild_id).daily_posts

    def language(self, guild_id: int | None) -> str | None:
        """The language set for the server's public boards, if any."""
        return self.get(guild_id).language

    def seasons(self, guild_id: int | None) -> Seasons:
        return self.get(guild_id).seasons

    def pair_cap(self, guild_id: int | None) -> int:
        return self.get(guild_id).pair_cap

    def race_seconds(self, guild_id: int | None) -> float:
        """A race's time limit in the server."""
        return self.get(guild_id).race_minutes * 60.0

    # ---- changing them ----------------------------------------------------------------------
    async def change(self, guild_id: int, user_id: int, asked: Changes,
                     action_id: int | None) -> tuple[ServerSettings, list[Setting]]:
        """Apply and log the changes; returns the new settings and the names changed."""
        before = self.get(guild_id)
        after = apply(before, asked)
        with speaking(None):  # the log keeps the words in English, read back by the summary
            old, new = (describe(s, self.default_idle_hours) for s in (before, after))
        changes = [(name, old[name], new[name]) for name in new if old[name] != new[name]]
        if changes:
            async with once(), self.db.transaction() as conn:
                await self.store.save(conn, guild_id, after.values(), changes, user_id=user_id,
                                      now=self.clock(), action_id=action_id)
            self._cache[guild_id] = after
            self._changes += 1
        return after, [name for name, _, _ in changes]

    async def recent(self, guild_id: int) -> list[SettingChange]:
        return await self.store.recent(await self.db.reader(), guild_id, LOG_LINES)

