"""A breaker board's buttons: **Guess** while it runs (opens a peg picker: the picker
feature, purpose ``g``), and once finished "Play again" (persistent, its custom_id names
the finished game, ``mmb:again:<game>``, whose rules the new game copies)."""

from __future__ import annotations

import re

import discord

from i18n import tr

from ...core.errors import MalformedButton
from ...core.records import GameRecord
from ...ui import launch
from ...ui.buttons import MAX_ID, ReportingButton, cog_of
from ..analysis.buttons import analyse_view
from ..picker.buttons import open_button
from ..picker.state import Picker

AGAIN = "\N{CLOCKWISE RIGHTWARDS AND LEFTWARDS OPEN CIRCLE ARROWS}"
GUESS = "\N{DIRECT HIT}"
#: The picker purpose of a guess in a breaker game (its target: the game's id).
GUESS_PURPOSE = "g"
_AGAIN = re.compile(r"again:(?P<game>\d{1,20})")


class PlayAgainButton(ReportingButton, prefix="mmb"):
    """Starts a new game in the channel with the finished game's rules."""

    def __init__(self, game_id: int):
        self.game_id = game_id
        super().__init__(discord.ui.Button(label=tr("Play again"), emoji=AGAIN,
                                           style=discord.ButtonStyle.primary,
                                           custom_id=f"mmb:again:{game_id}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> PlayAgainButton:
        found = _AGAIN.fullmatch(match["body"])
        if found is None or int(found["game"]) > MAX_ID:
            return cls(0)
        return cls(int(found["game"]))

    async def run(self, interaction: discord.Interaction) -> None:
        if self.game_id == 0:
            raise MalformedButton()
        from .cog import BreakerCog  # the cog registers this button: import it when clicked

        await cog_of(interaction, BreakerCog).play_again(interaction, self.game_id)


def play_again_view(game: GameRecord, view: discord.ui.View | None = None
                    ) -> discord.ui.View | None:
    """A finished game's "Play again" (added to ``view`` if given); none while it runs, nor
    for a match's half-round, which its match continues."""
    if game.active or game.match_id is not None:
        return view
    view = view or discord.ui.View(timeout=None)
    view.add_item(PlayAgainButton(game.id))
    return view


def guess_button(game: GameRecord) -> discord.ui.Item:
    """Opens a peg picker for whoever clicks, to guess this game's code."""
    return open_button(Picker(GUESS_PURPOSE, 0, str(game.id)), label=tr("Guess"), emoji=GUESS)


def board_view(game: GameRecord) -> discord.ui.View | None:
    """A breaker board's buttons: Guess while the game runs; once over, Analyse and (unless
    a match continues) Play again, a race's board none. Labelled in the language being spoken
    (the board's)."""
    if not game.active:  # a race's board: nothing that shows the code before the race ends
        return None if game.race_id is not None else play_again_view(game, analyse_view(game))
    view = discord.ui.View(timeout=None)
    view.add_item(guess_button(game))
    if game.match_id is not None or game.race_id is not None:  # chat only
        return view
    return launch.add_to(view)
