"""A puzzle board's buttons (``mmz:<action>:<play>``): answer it (a form for the code) and,
once answered, another of the same kind. Persistent: the id names the stored play."""

from __future__ import annotations

import re
from enum import StrEnum

import discord

from engine import Rules, example

from ...core.errors import MalformedButton
from ...store.puzzles import PuzzlePlay
from ...ui.responses import MAX_ID, ReportingButton, ReportingModal, cog_of


class PuzzleAction(StrEnum):
    ANSWER = "answer"
    ANOTHER = "another"


_WELL_FORMED = re.compile(r"(?P<action>answer|another):(?P<play>\d{1,20})")


def _controller(interaction: discord.Interaction):
    from .cog import PuzzleCog  # the cog registers these buttons: import it when clicked

    return cog_of(interaction, PuzzleCog)


class PuzzleButton(ReportingButton, template=r"mmz:(?P<body>.*)"):
    def __init__(self, action: PuzzleAction | None, play_id: int, *, label: str = "?",
                 style: discord.ButtonStyle = discord.ButtonStyle.primary):
        self.action, self.play_id = action, play_id
        action_id = (action or PuzzleAction.ANSWER).value
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"mmz:{action_id}:{play_id}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> PuzzleButton:
        found = _WELL_FORMED.fullmatch(match["body"])
        if found is None or int(found["play"]) > MAX_ID:
            return cls(None, 0)
        return cls(PuzzleAction(found["action"]), int(found["play"]))

    async def run(self, interaction: discord.Interaction) -> None:
        if self.action is None:
            raise MalformedButton()
        await _controller(interaction).on_button(interaction, self.action, self.play_id)


class AnswerModal(ReportingModal, title="Name the code"):
    def __init__(self, play_id: int, rules: Rules):
        super().__init__(timeout=600)
        self.play_id = play_id
        self.code: discord.ui.TextInput = discord.ui.TextInput(
            label=f"The code ({rules.pegs} pegs): one try", placeholder=f"e.g. {example(rules)}",
            min_length=1, max_length=100, custom_id="code")
        self.add_item(self.code)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).answer(interaction, self.play_id, self.code.value)


def puzzle_view(play: PuzzlePlay) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if play.open:
        view.add_item(PuzzleButton(PuzzleAction.ANSWER, play.id, label="Answer"))
    else:
        view.add_item(PuzzleButton(PuzzleAction.ANOTHER, play.id, label="Another puzzle",
                                   style=discord.ButtonStyle.secondary))
    return view
