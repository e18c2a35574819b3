"""A race's persistent buttons: join, leave, start (the lobby), my board, leave (the race).

The custom_id carries what a click needs (``mmr:<action>:<race>``), so the buttons keep
working after a restart. These classes only parse it and hand over to the feature's
controller, :class:`~bot.features.race.cog.RaceCog`.
"""

from __future__ import annotations

import re
from enum import StrEnum

import discord

from ...core.enums import RaceStatus
from ...core.errors import MalformedButton
from ...ui.buttons import MAX_ID, ReportingButton, cog_of


class RaceAction(StrEnum):
    JOIN = "join"
    LEAVE = "leave"
    START = "start"  # the starter, before the lobby's minute is up
    BOARD = "board"  # a racer's own board, shown to them alone


def _controller(interaction: discord.Interaction):
    from .cog import RaceCog  # the cog builds these buttons: import it when clicked

    return cog_of(interaction, RaceCog)


_WELL_FORMED = re.compile(r"(?P<action>join|leave|start|board):(?P<race>[1-9]\d{0,19})")


class RaceButton(ReportingButton, prefix="mmr"):
    """Any button of a race; every ``mmr:`` id lands here, so an unreadable one is answered."""

    def __init__(self, action: RaceAction | None, race_id: int, *, label: str = "?",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary):
        self.action, self.race_id = action, race_id
        super().__init__(discord.ui.Button(
            label=label, style=style,
            custom_id=f"mmr:{(action or RaceAction.JOIN).value}:{race_id}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> RaceButton:
        found = _WELL_FORMED.fullmatch(match["body"])
        if found is None or int(found["race"]) > MAX_ID:
            return cls(None, 0)
        return cls(RaceAction(found["action"]), int(found["race"]))

    async def run(self, interaction: discord.Interaction) -> None:
        if self.action is None:
            raise MalformedButton()
        await _controller(interaction).on_button(interaction, self.action, self.race_id)


def drawn_status(message: discord.Message, race_id: int) -> RaceStatus | None:
    """What a race's board was last drawn as, read from its buttons: the lobby (Join), the
    race under way (My board), or over (None: no buttons)."""
    ids = {getattr(item, "custom_id", None) for row in message.components
           for item in getattr(row, "children", ())}
    if f"mmr:{RaceAction.JOIN.value}:{race_id}" in ids:
        return RaceStatus.LOBBY
    if f"mmr:{RaceAction.BOARD.value}:{race_id}" in ids:
        return RaceStatus.RUNNING
    return None
