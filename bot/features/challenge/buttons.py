"""The challenge board's persistent buttons (Reveal my code opens a peg picker).

A custom_id carries everything a click needs (``mmc:<action>:<game>[:<turn>[:<b>[:<w>]]]``),
so boards keep working after a restart. These classes only parse it and hand over to the
feature's controller, :class:`~bot.features.challenge.cog.ChallengeCog`.
"""

from __future__ import annotations

import re
from enum import StrEnum

import discord

from ...core.errors import MalformedButton
from ...ui.responses import MAX_ID, ReportingButton, cog_of


class Action(StrEnum):
    REPLY = "r"  # :turn:black:white
    BLACK = "b"  # :turn:black (the first step of a two-step reply)
    OTHER_BLACK = "back"  # :turn (back to the black counts)
    UNDO = "undo"  # :turn (the reply to take back)
    REVEAL = "reveal"
    AGAIN = "again"  # on a finished board: a new challenge with the same rules


def custom_id(action: Action, game: int, *parts: int) -> str:
    return ":".join(["mmc", action.value, str(game), *map(str, parts)])


def _controller(interaction: discord.Interaction):
    from .cog import ChallengeCog  # the cog builds these buttons: import it when clicked

    return cog_of(interaction, ChallengeCog)


_WELL_FORMED = re.compile(r"(?P<action>r|b|back|undo|reveal|again):(?P<game>\d{1,20})"
                          r"(?P<rest>(?::\d{1,20}){0,3})")


class ChallengeButton(ReportingButton, template=r"mmc:(?P<body>.*)"):
    """Any button of a challenge board; ``action`` says what it does. Every ``mmc:`` id
    lands here, so one this version cannot read is answered, not ignored."""

    def __init__(self, action: Action | None, game: int, *parts: int, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 row: int | None = None, emoji: str | None = None):
        self.action, self.game, self.parts = action, game, parts
        super().__init__(
            discord.ui.Button(label=label or (action.value if action else "?"), style=style,
                              custom_id=custom_id(action or Action.REVEAL, game, *parts),
                              row=row, emoji=emoji)
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> ChallengeButton:
        found = _WELL_FORMED.fullmatch(match["body"])
        if found is None:
            return cls(None, 0)
        numbers = [found["game"], *(p for p in found["rest"].split(":") if p)]
        if any(int(n) > MAX_ID for n in numbers):
            return cls(None, 0)
        game, *parts = (int(n) for n in numbers)
        return cls(Action(found["action"]), game, *parts)

    async def run(self, interaction: discord.Interaction) -> None:
        if self.action is None:
            raise MalformedButton()
        await _controller(interaction).on_button(interaction, self.action, self.game, self.parts)
