"""The challenge board's persistent buttons and the reveal modal.

A custom_id carries everything a click needs (``mmc:<action>:<game>[:<turn>[:<b>[:<w>]]]``),
so boards keep working after a restart. These classes only parse it and hand over to the
feature's controller, :class:`~bot.features.challenge.cog.ChallengeCog`.
"""

from __future__ import annotations

import re
from enum import StrEnum

import discord

from engine import Rules

from ...ui.responses import ReportingButton, ReportingModal, cog_of


class Action(StrEnum):
    REPLY = "r"  # :turn:black:white
    BLACK = "b"  # :turn:black (the first step of a two-step reply)
    OTHER_BLACK = "back"  # :turn (back to the black counts)
    UNDO = "undo"  # :turn (the reply to take back)
    REVEAL = "reveal"


def custom_id(action: Action, game: int, *parts: int) -> str:
    return ":".join(["mmc", action.value, str(game), *map(str, parts)])


def _controller(interaction: discord.Interaction):
    from .cog import ChallengeCog  # the cog builds these buttons: import it when clicked

    return cog_of(interaction, ChallengeCog)


class ChallengeButton(
    ReportingButton,
    template=r"mmc:(?P<action>r|b|back|undo|reveal):(?P<game>\d{1,18})(?P<rest>(?::\d{1,2}){0,3})",
):
    """Any button of a challenge board; ``action`` says what it does."""

    def __init__(self, action: Action, game: int, *parts: int, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 row: int | None = None):
        self.action, self.game, self.parts = action, game, parts
        super().__init__(
            discord.ui.Button(label=label or action.value, style=style,
                              custom_id=custom_id(action, game, *parts), row=row)
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> ChallengeButton:
        parts = tuple(int(p) for p in match["rest"].split(":") if p)
        return cls(Action(match["action"]), int(match["game"]), *parts)

    async def run(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).on_button(interaction, self.action, self.game, self.parts)


class RevealModal(ReportingModal, title="Reveal your code"):
    def __init__(self, game_id: int, rules: Rules):
        super().__init__(timeout=600)
        self.game_id = game_id
        self.code: discord.ui.TextInput = discord.ui.TextInput(
            label=f"Your secret code ({rules.pegs} pegs)", placeholder="e.g. 1123 or RROY",
            min_length=1, max_length=100, custom_id="code",
        )
        self.add_item(self.code)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).on_reveal(interaction, self.game_id, self.code.value)
