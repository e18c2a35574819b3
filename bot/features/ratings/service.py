"""Rating a finished match or race, inside the transaction that ends it, and reading the
boards. Discord-free.

Exactly once: a rated game claims its ``(kind, source id)`` row before it moves anything,
so a second ending (a retry, another process, a restart mid-ending) finds the row and
answers with the changes stored the first time. Every player's rating is locked (on
PostgreSQL) for the rest of the transaction, in one sorted call.

Seasons change lazily, player by player: a player's first rated game in a new season keeps
their row as the old season's final standing (its key: once) and carries the rating over
with its uncertainty widened (:func:`.model.widened`). A past season's board is those kept
rows and the rows of players who haven't played since.

The daily cap per pair: two players count toward rating together at most ``pair_cap``
times a UTC day in a server, counted from the rated games' stored changes. In a race of
many, a player is rated when at least one other player rated in it is still under the cap
with them (found by dropping, until none is left to drop, the players who have no such
opponent); the rated players' pairs all count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from ...core.clock import Clock, system_clock
from ...core.enums import RatedKind, Seasons
from ...core.ratings import PlayerRating, Standing, StoredChange
from ...store import Connection, Database, GameStore
from ...store.ratings import RatedWrites, RatingStore, bucket
from . import model
from .errors import UnknownSeason

#: The default daily cap per pair, and the default season cadence.
DEFAULT_PAIR_CAP = 3
DEFAULT_SEASONS = Seasons.MONTHLY
#: The rated games drawn on a /stats chart (the last ones).
HISTORY_GAMES = 200
#: Players on a page of a rating board.
PAGE_SIZE = 10


class WhyNot(StrEnum):
    """Why a game didn't move a player's rating (rendered by :mod:`.render`)."""

    #: They already played each other player in it ``pair_cap`` rated games today.
    PAIR_CAP = "pair-cap"
    #: Nobody else to be rated against (a race of one, or everyone else capped).
    ALONE = "alone"
    #: Played in a DM: ratings are per server.
    DM = "dm"


@dataclass(frozen=True)
class Placement:
    user_id: int
    #: 1 is best; equal places are a tie (forfeits and time-outs already ranked last).
    place: int


@dataclass(frozen=True)
class RatedGame:
    #: None (a DM) is never rated.
    guild_id: int | None
    kind: RatedKind
    #: The race's or the match's id: ``(kind, source_id)`` is rated at most once.
    source_id: int
    placements: tuple[Placement, ...]


@dataclass(frozen=True)
class RatingChange:
    user_id: int
    #: The shown rating (the conservative one, scaled) before and after; None before the
    #: player's first rated game in the server.
    before: float | None
    after: float | None
    provisional: bool
    rated: bool
    #: A :class:`WhyNot` value when not rated.
    why_not: str | None
    place: int = 0

    @property
    def delta(self) -> float | None:
        if not self.rated or self.after is None:
            return None
        return self.after - (model.newcomer() if self.before is None else self.before)


@dataclass(frozen=True)
class RatingOutcome:
    changes: tuple[RatingChange, ...]

    def of(self, user_id: int) -> RatingChange | None:
        return next((c for c in self.changes if c.user_id == user_id), None)


@dataclass(frozen=True)
class PlayerCard:
    """A player's rating in a server for ``/stats``."""

    rating: PlayerRating
    #: Their place on the current season's board (None: not rated this season yet).
    rank: int | None
    season: str
    current: bool
    last: StoredChange | None
    history: tuple[StoredChange, ...]
    #: Players on the current season's board.
    total: int = 0

    @property
    def provisional(self) -> bool:
        return _provisional(self.rating)


@dataclass(frozen=True)
class PageTurn:
    """A page turned from the one shown: the rows after its last row (or before its first),
    found by that row's place instead of by counting the rows above (a deep page)."""

    rating: float
    user_id: int
    after: bool


@dataclass(frozen=True)
class Board:
    """A page of a season's rating board."""

    season: str
    current: bool
    rows: tuple[Standing, ...]
    #: Players on the whole board, the page shown (0-based) and the pages.
    size: int
    page: int
    pages: int
    #: The rows' players' last names seen (a forgotten player has none).
    names: dict[int, str]
    #: The viewer's own row on this board (None: not on it).
    viewer: Standing | None


def _from_stored(change: StoredChange) -> RatingChange:
    return RatingChange(change.user_id, change.before, change.after, change.provisional,
                        change.why_not is None, change.why_not, change.place)


def _provisional(player: PlayerRating | None) -> bool:
    return player is None or player.total_games < model.PROVISIONAL_GAMES


def rated_field(user_ids: Sequence[int], counts: dict[tuple[int, int], int], cap: int
                ) -> set[int]:
    """The players a game rates under the daily cap per pair (see the module's doc): never
    one alone (a player is kept with an opponent who is kept with them)."""
    field = set(user_ids)
    while True:
        keep = {u for u in field if any(counts.get((min(u, o), max(u, o)), 0) < cap
                                         for o in field if o != u)}
        if keep == field:
            return field
        field = keep


class RatingService:
    def __init__(self, db: Database, *, clock: Clock = system_clock,
                 seasons: Callable[[int | None], Seasons] = lambda guild: DEFAULT_SEASONS,
                 pair_cap: Callable[[int | None], int] = lambda guild: DEFAULT_PAIR_CAP):
        self.db = db
        self.clock = clock
        self.seasons = seasons
        self.pair_cap = pair_cap
        self.store = RatingStore()

    def season(self, guild_id: int | None, now: float | None = None) -> str:
        """The server's season now."""
        return model.season_of(self.clock() if now is None else now, self.seasons(guild_id))

    # ---- rating (inside the caller's transaction) -------------------------------------------
    async def rate(self, conn: Connection, game: RatedGame, now: float) -> RatingOutcome:
        """Rate ``game`` in the caller's write transaction that ends it (``conn``), as its
        last step: it takes the players' rating locks, ranked above every other key
        (bot/store/locks.py). A game rated already answers with the changes stored then."""
        ids = [p.user_id for p in game.placements]
        if len(set(ids)) != len(ids):
            raise ValueError(f"a player placed twice in {game.kind} {game.source_id}")
        guild = game.guild_id
        if guild is None:
            return RatingOutcome(tuple(RatingChange(p.user_id, None, None, False, False,
                                                    WhyNot.DM, p.place)
                                       for p in game.placements))
        if len(ids) < 2:
            return await self._unrated(conn, guild, game.placements, WhyNot.ALONE)
        season = self.season(guild, now)
        day = model.utc_day(now)
        opened = await self.store.claim(conn, game.kind, game.source_id, guild, season, now,
                                        day, ids)
        if opened is None:
            stored = await self.store.changes_of(conn, game.kind, game.source_id)
            return RatingOutcome(tuple(map(_from_stored, stored)))
        rated = rated_field(ids, opened.pairs, self.pair_cap(guild))
        writes = self._writes(guild, season, now, game, opened.players, rated)
        await self.store.write(conn, writes)
        return RatingOutcome(tuple(map(_from_stored, writes.changes)))

    def _writes(self, guild: int, season: str, now: float, game: RatedGame,
                players: dict[int, PlayerRating], rated: set[int]) -> RatedWrites:
        """What the game changes: the ratings of the players ``rated`` move by the
        library's numbers, the others' changes say they were capped."""
        placements = [p for p in game.placements if p.user_id in rated]
        start: dict[int, PlayerRating] = {}
        kept = []  # players whose last season ended: its final standing is kept
        entering = 0  # players on the season's board from this game on
        for p in placements:
            old = players.get(p.user_id)
            entering += old is None or old.season != season
            if old is not None and old.season != season:
                kept.append(p.user_id)
                sigma = model.widened(old.sigma)
                carried = model.shown(model.rating(old.mu, sigma))
                old = replace(old, season=season, sigma=sigma, rating=carried, games=0,
                              best=carried)
            start[p.user_id] = old or self._newcomer(guild, p.user_id, season, now)
        teams = [[model.rating(start[p.user_id].mu, start[p.user_id].sigma)]
                 for p in placements]
        after = model.MODEL.rate(teams, ranks=[float(p.place) for p in placements]
                                 ) if placements else []
        saved, changes = [], {}
        moves: Counter[int] = Counter()  # players in and out of whole rating points
        for p, (new,) in zip(placements, after, strict=True):
            was = start[p.user_id]
            shown = model.shown(new)
            old = players.get(p.user_id)
            if old is not None and old.season == season:
                moves[bucket(old.rating)] -= 1
            moves[bucket(shown)] += 1
            player = PlayerRating(  # not dataclasses.replace: a tenth of a race's Python
                guild, p.user_id, season, float(new.mu), float(new.sigma), shown,
                was.games + 1, was.total_games + 1, max(was.best, shown), now)
            saved.append(player)
            changes[p.user_id] = StoredChange(
                game.kind, game.source_id, p.user_id, p.place,
                was.rating if p.user_id in players else None, shown,
                player.total_games < model.PROVISIONAL_GAMES, None, now)
        for p in game.placements:  # every other player in it is capped with them
            if p.user_id not in rated:
                old = players.get(p.user_id)
                before = old.rating if old else None
                changes[p.user_id] = StoredChange(
                    game.kind, game.source_id, p.user_id, p.place, before, before,
                    _provisional(old), WhyNot.PAIR_CAP, now)
        return RatedWrites(guild, season, tuple(kept), tuple(saved), moves, entering,
                           tuple(changes[p.user_id] for p in game.placements))

    @staticmethod
    def _newcomer(guild: int, user_id: int, season: str, now: float) -> PlayerRating:
        first = model.rating()
        shown = model.shown(first)
        return PlayerRating(guild, user_id, season, float(first.mu), float(first.sigma), shown,
                            0, 0, shown, now)

    async def _unrated(self, conn: Connection, guild: int,
                       placements: Sequence[Placement], why: WhyNot) -> RatingOutcome:
        players = await self.store.players(conn, guild, [p.user_id for p in placements])
        changes = []
        for p in placements:
            old = players.get(p.user_id)
            before = old.rating if old else None
            changes.append(RatingChange(p.user_id, before, before, _provisional(old), False,
                                        why, p.place))
        return RatingOutcome(tuple(changes))

    # ---- reading ----------------------------------------------------------------------------
    async def outcome(self, kind: RatedKind, source_id: int) -> RatingOutcome | None:
        """The changes a rated game made, as stored (None: it moved nothing, or not yet),
        for a result shown after the transaction that rated it."""
        stored = await self.store.changes_of(await self.db.reader(), kind, source_id)
        return RatingOutcome(tuple(map(_from_stored, stored))) if stored else None

    async def board(self, guild_id: int, season: str | None, *, page: int, viewer_id: int,
                    size: int = PAGE_SIZE, turn: PageTurn | None = None) -> Board:
        """A page of a season's board (None: the current season), by its number or turned
        from a row of the page shown (``turn``: it costs its own rows, however deep; a
        board that changed since shows the rows next to that row, numbered by their
        ranks); raises :class:`UnknownSeason` for a season the server never had."""
        current = self.season(guild_id)
        season = season or current
        conn = await self.db.reader()
        if season != current and season not in (known := await self.store.seasons(conn,
                                                                                   guild_id)):
            raise UnknownSeason(season, known)
        total = await self.store.size(conn, guild_id, season)
        pages = max(1, -(-total // size))
        now = season == current
        rows = await self._turned(conn, guild_id, season, now, turn, size) if turn else []
        if rows:
            page = min((rows[0].rank - 1) // size, pages - 1)
        else:  # by number; a turn that found no page: the end it ran into
            if turn is not None:
                page = pages - 1 if turn.after else 0
            page = min(max(page, 0), pages - 1)
            rows = await self.store.board(conn, guild_id, season, now, offset=page * size,
                                          limit=size)
        viewer = next((r for r in rows if r.user_id == viewer_id), None)
        if viewer is None:
            viewer = await self.store.standing_on(conn, guild_id, season, now, viewer_id)
        names = await GameStore().player_names(conn, [r.user_id for r in rows])
        return Board(season, now, tuple(rows), total, page, pages, names, viewer)

    async def _turned(self, conn: Connection, guild_id: int, season: str, current: bool,
                      turn: PageTurn, size: int) -> list[Standing]:
        """The page a turn shows; none when the turn finds no full page before the row
        (then the first page is shown) or nothing after it."""
        rows = await self.store.beside(conn, guild_id, season, current, turn.rating,
                                       turn.user_id, after=turn.after, limit=size)
        return [] if not turn.after and len(rows) < size else rows

    async def seasons_played(self, guild_id: int) -> list[str]:
        return await self.store.seasons(await self.db.reader(), guild_id)

    async def card(self, guild_id: int, user_id: int) -> PlayerCard | None:
        """The player's rating in the server, or None before their first rated game."""
        conn = await self.db.reader()
        player = await self.store.player(conn, guild_id, user_id)
        if player is None:
            return None
        season = self.season(guild_id)
        current = player.season == season
        rank = (await self.store.rank(conn, guild_id, season, True, user_id, player.rating)
                if current else None)
        total = await self.store.size(conn, guild_id, season) if current else 0
        history = await self.store.history(conn, guild_id, user_id, HISTORY_GAMES)
        return PlayerCard(player, rank, season, current, history[-1] if history else None,
                          tuple(history), total)
