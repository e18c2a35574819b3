"""A match's persistent buttons: accept, decline, set my code (which opens a peg picker).

The custom_id carries what a click needs (``mmm:<action>:<match>[:<half>]``), so the
buttons keep working after a restart. These classes only parse it and hand over to the
feature's controller, :class:`~bot.features.match.cog.MatchCog`.
"""

from __future__ import annotations

import re
from enum import StrEnum

import discord

from ...core.errors import MalformedButton
from ...ui.buttons import MAX_ID, ReportingButton, cog_of


class MatchAction(StrEnum):
    ACCEPT = "accept"  # the invited player joins
    DECLINE = "decline"  # either player calls the match off
    CODE = "code"  # :half, the half-round's setter opens a code picker


def _controller(interaction: discord.Interaction):
    from .cog import MatchCog  # the cog builds these buttons: import it when clicked

    return cog_of(interaction, MatchCog)


_WELL_FORMED = re.compile(r"(?P<action>accept|decline|code):(?P<match>\d{1,20})"
                          r"(?::(?P<half>\d{1,2}))?")


class MatchButton(ReportingButton, prefix="mmm"):
    """Any button of a match; every ``mmm:`` id lands here, so an unreadable one is answered."""

    def __init__(self, action: MatchAction | None, match_id: int, half: int | None = None, *,
                 label: str = "?", style: discord.ButtonStyle = discord.ButtonStyle.secondary):
        self.action, self.match_id, self.half = action, match_id, half
        parts = [str(match_id)] + ([str(half)] if half is not None else [])
        super().__init__(discord.ui.Button(
            label=label, style=style,
            custom_id=":".join(["mmm", (action or MatchAction.ACCEPT).value, *parts])))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> MatchButton:
        found = _WELL_FORMED.fullmatch(match["body"])
        if found is None or int(found["match"]) > MAX_ID:
            return cls(None, 0)
        action = MatchAction(found["action"])
        half = int(found["half"]) if found["half"] is not None else None
        if (action is MatchAction.CODE) != (half is not None):
            return cls(None, 0)
        return cls(action, int(found["match"]), half)

    async def run(self, interaction: discord.Interaction) -> None:
        if self.action is None:
            raise MalformedButton()
        await _controller(interaction).on_button(interaction, self.action, self.match_id,
                                                 self.half)
