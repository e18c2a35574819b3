"""Hints for a running channel game: worked out from its replies, recorded, counted.

``check`` reads the game (no waiting), ``work_out`` is CPU work for a worker thread, and
``commit`` records the hint only if the board is still the one it was worked out from.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine import Code, format_code
from engine.hints import Facts, facts
from i18n import speaking, tr, trc, trn

from ...core.enums import GameKind
from ...core.errors import WrongKindOfGame
from ...core.records import GameRecord
from ...services.games import GameService
from ...store import StaleWrite, once
from ...store.hints import HintStore
from .errors import HintNeedsAGuess, HintRaced, HintsOff, NoHintsInMatches, NoMoreHints

#: Hints per game: the count, a colour, a fitting code.
LEVELS = 3


@dataclass(frozen=True)
class Hint:
    level: int
    #: level 1: codes that fit; level 2: the colour and whether it is in the code (None:
    #: nothing is sure, ``colour`` is then the likeliest); level 3: a fitting code.
    count: int
    colour: int | None = None
    colour_in: bool | None = None
    containing: int = 0
    code: Code | None = None

    @property
    def text(self) -> str:
        """The hint in plain words, in the language spoken here."""
        return self.words(format_code(self.code) if self.code is not None else "")

    @property
    def recorded(self) -> str:
        """The hint as the database keeps it: in English, whoever asked."""
        with speaking(None):
            return self.text

    def words(self, code: str) -> str:
        """The hint in plain words, ``code`` being how the fitting code is written."""
        if self.level == 1:
            return trn("Only {count} code still fits every reply.",
                       "{count} codes still fit every reply.", self.count)
        if self.level == 2:
            assert self.colour is not None
            name = colour_name(self.colour)
            if self.colour_in is None:
                return trn("No colour is sure yet; the likeliest is colour {digit} ({name}): "
                           "it is in {containing} of the {count} code that fits.",
                           "No colour is sure yet; the likeliest is colour {digit} ({name}): "
                           "it is in {containing} of the {count} codes that fit.", self.count,
                           digit=self.colour, name=name, containing=self.containing)
            if self.colour_in:
                return tr("Colour {digit} ({name}) is surely in the code.", digit=self.colour,
                          name=name)
            return tr("Colour {digit} ({name}) is surely not in the code.", digit=self.colour,
                      name=name)
        return tr("{code} fits every reply so far.", code=code)


def colour_name(digit: int) -> str:
    """A colour's name in the language spoken here (the palette's names are English ids;
    the letters typed in codes stay the same in every language)."""
    return (trc("colour", "red"), trc("colour", "orange"), trc("colour", "yellow"),
            trc("colour", "green"), trc("colour", "blue"), trc("colour", "purple"),
            trc("colour", "brown"), trc("colour", "white"), trc("colour", "black"))[digit - 1]


def choose_hint(level: int, found: Facts) -> Hint:
    if level == 1:
        return Hint(1, found.count)
    if level == 2:
        if found.surely_in:
            return Hint(2, found.count, found.surely_in[0], True)
        if found.surely_out:
            return Hint(2, found.count, found.surely_out[0], False)
        likeliest = max(range(len(found.containing)), key=lambda c: found.containing[c])
        return Hint(2, found.count, likeliest + 1, None, found.containing[likeliest])
    return Hint(3, found.count, code=found.fitting)


class HintService:
    def __init__(self, games: GameService, hints_allowed: Callable[[int | None], bool]):
        self.games = games
        self.hints_allowed = hints_allowed
        self.store = HintStore()

    async def check(self, *, guild_id: int | None, channel_id: int) -> GameRecord:
        """The running breaker game that may have its next hint; refuses otherwise."""
        if not self.hints_allowed(guild_id):
            raise HintsOff()
        game = await self.games.running(channel_id)
        if game.kind is not GameKind.BREAKER:
            raise WrongKindOfGame(game)
        if game.match_id is not None:
            raise NoHintsInMatches()
        if game.hints >= LEVELS:
            raise NoMoreHints(game)
        if game.hints == 1 and not game.guesses:
            raise HintNeedsAGuess()
        return game

    @staticmethod
    def work_out(game: GameRecord) -> Hint:
        """CPU work: run it in a worker thread."""
        turns = [(g.code, g.feedback) for g in game.guesses]
        return choose_hint(game.hints + 1, facts(game.rules, turns, pick=game.id))

    async def commit(self, game: GameRecord, hint: Hint, *, user_id: int,
                     action_id: int | None) -> GameRecord:
        try:
            async with once(), self.games.db.transaction() as conn:
                return await self.store.add(conn, game, level=hint.level, user_id=user_id,
                                            text=hint.recorded, now=self.games.clock(),
                                            action_id=action_id)
        except StaleWrite:
            raise HintRaced() from None
