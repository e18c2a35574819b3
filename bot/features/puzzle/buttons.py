"""A puzzle board's "Another puzzle" button (``mmz:another:<play>``): a new puzzle of the
answered one's level and size. Persistent: the id names the stored play. (Answering is the
peg picker's: :mod:`.picking`.)"""

from __future__ import annotations

import re

import discord

from i18n import tr

from ...core.errors import MalformedButton
from ...core.records import PuzzlePlay
from ...ui import launch
from ...ui.buttons import MAX_ID, ReportingButton, cog_of
from .picking import answer_button

_WELL_FORMED = re.compile(r"another:(?P<play>\d{1,20})")


class AnotherPuzzleButton(ReportingButton, prefix="mmz"):
    def __init__(self, play_id: int):
        self.play_id = play_id
        super().__init__(discord.ui.Button(label=tr("Another puzzle"),
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"mmz:another:{play_id}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> AnotherPuzzleButton:
        found = _WELL_FORMED.fullmatch(match["body"])
        if found is None or int(found["play"]) > MAX_ID:
            return cls(0)
        return cls(int(found["play"]))

    async def run(self, interaction: discord.Interaction) -> None:
        if self.play_id == 0:
            raise MalformedButton()
        from .cog import PuzzleCog  # the cog registers this button: import it when clicked

        await cog_of(interaction, PuzzleCog).another(interaction, self.play_id)


def puzzle_view(play: PuzzlePlay) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(answer_button(play) if play.open else AnotherPuzzleButton(play.id))
    return launch.add_to(view) if play.open and play.kind == "daily" else view
