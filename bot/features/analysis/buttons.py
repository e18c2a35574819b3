"""The ``Analyse`` button on finished games: persistent, its custom_id names the game
(``mma:g:<game>``) or a player's daily (``mma:d:<YYYY-MM-DD>``, the clicker's own)."""

from __future__ import annotations

import re

import discord

from i18n import tr

from ...core.errors import MalformedButton
from ...core.records import GameRecord
from ...ui.buttons import MAX_ID, ReportingButton, cog_of

_BODY = re.compile(r"g:(?P<game>\d{1,20})|d:(?P<day>\d{4}-\d{2}-\d{2})")


class AnalyseButton(ReportingButton, prefix="mma"):
    """Shows the clicker alone how the game was played, move by move."""

    def __init__(self, *, game_id: int | None = None, day: str | None = None,
                 readable: bool = True):
        self.game_id, self.day, self.readable = game_id, day, readable
        target = f"g:{game_id}" if game_id is not None else f"d:{day}"
        super().__init__(discord.ui.Button(label=tr("Analyse"), emoji="\N{BAR CHART}",
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"mma:{target}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> AnalyseButton:
        found = _BODY.fullmatch(match["body"])
        if found is None or (found["game"] and int(found["game"]) > MAX_ID):
            return cls(game_id=0, readable=False)
        if found["game"]:
            return cls(game_id=int(found["game"]))
        return cls(day=found["day"])

    async def run(self, interaction: discord.Interaction) -> None:
        if not self.readable:
            raise MalformedButton()
        from .cog import AnalysisCog  # the cog registers this button: import it when clicked

        cog = cog_of(interaction, AnalysisCog)
        if self.game_id is not None:
            await cog.on_game(interaction, self.game_id)
        else:
            assert self.day is not None
            await cog.on_daily(interaction, self.day)


def analyse_view(game: GameRecord, view: discord.ui.View | None = None) -> discord.ui.View | None:
    """A finished game's Analyse button (added to ``view`` if given); None while it runs."""
    if game.active:
        return view
    view = view or discord.ui.View(timeout=None)
    view.add_item(AnalyseButton(game_id=game.id))
    return view
