"""The challenge board's persistent buttons (Reveal my code opens a peg picker).

A custom_id carries everything a click needs (``mmc:<action>:<game>`` and exactly the
numbers its action takes, :data:`PARTS`), so boards keep working after a restart. These
classes only parse it and hand over to the feature's controller,
:class:`~bot.features.challenge.cog.ChallengeCog`.
"""

from __future__ import annotations

import re
from enum import StrEnum

import discord

from engine.rules import MAX_GUESSES, MAX_PEGS

from ...core.errors import MalformedButton
from ...ui.buttons import MAX_ID, ReportingButton, cog_of


class Action(StrEnum):
    REPLY = "r"  # :turn:black:white
    BLACK = "b"  # :turn:black (the first step of a two-step reply)
    OTHER_BLACK = "back"  # :turn (back to the black counts)
    UNDO = "undo"  # :turn (the reply to take back)
    REVEAL = "reveal"
    AGAIN = "again"  # on a finished board: a new challenge with the same rules


#: The numbers each action's custom_id carries after the game, with the largest each may be:
#: exactly these, none defaulted, none extra (anything else is told "out of date").
PARTS: dict[Action, tuple[int, ...]] = {
    Action.REPLY: (MAX_GUESSES, MAX_PEGS, MAX_PEGS),  # turn, black, white
    Action.BLACK: (MAX_GUESSES, MAX_PEGS),  # turn, black
    Action.OTHER_BLACK: (MAX_GUESSES,),  # turn
    Action.UNDO: (MAX_GUESSES,),  # turn
    Action.REVEAL: (),
    Action.AGAIN: (),
}


def custom_id(action: Action, game: int, *parts: int) -> str:
    return ":".join(["mmc", action.value, str(game), *map(str, parts)])


def _controller(interaction: discord.Interaction):
    from .cog import ChallengeCog  # the cog builds these buttons: import it when clicked

    return cog_of(interaction, ChallengeCog)


_WELL_FORMED = re.compile(r"(?P<action>r|b|back|undo|reveal|again):(?P<game>\d{1,20})"
                          r"(?P<rest>(?::\d{1,20})*)")


def read_body(body: str) -> tuple[Action, int, tuple[int, ...]] | None:
    """``(action, game, parts)`` from what follows ``mmc:``, or None unless it carries
    exactly the parts its action needs, each in range (turns count from 1)."""
    found = _WELL_FORMED.fullmatch(body)
    if found is None:
        return None
    action, game = Action(found["action"]), int(found["game"])
    parts = tuple(int(p) for p in found["rest"].split(":") if p)
    limits = PARTS[action]
    if not 0 < game <= MAX_ID or len(parts) != len(limits):
        return None
    if any(not 0 <= p <= top for p, top in zip(parts, limits, strict=True)):
        return None
    if parts and parts[0] == 0:  # every action with parts names a turn first
        return None
    return action, game, parts


class ChallengeButton(ReportingButton, prefix="mmc"):
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
        read = read_body(match["body"])
        if read is None:
            return cls(None, 0)
        action, game, parts = read
        return cls(action, game, *parts)

    async def run(self, interaction: discord.Interaction) -> None:
        if self.action is None:
            raise MalformedButton()
        await _controller(interaction).on_button(interaction, self.action, self.game, self.parts)
