"""The board's button that opens the Activity (``mma:launch``)."""

from __future__ import annotations

import re

import discord

from i18n import mark, tr

from ...core.errors import MalformedButton
from ...ui.buttons import ReportingButton

LABEL = mark("Play in the Activity")
CUSTOM_ID = "mma:launch"


class LaunchButton(ReportingButton, prefix="mma"):
    """Answers with ``LAUNCH_ACTIVITY`` (callback 12), which must be the first answer: it
    never defers, and nothing before it waits."""

    def __init__(self, known: bool = True) -> None:
        self.known = known
        super().__init__(discord.ui.Button(label=tr(LABEL), custom_id=CUSTOM_ID,
                                           style=discord.ButtonStyle.secondary,
                                           emoji="\N{VIDEO GAME}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> LaunchButton:
        return cls(known=match["body"] == "launch")

    async def run(self, interaction: discord.Interaction) -> None:
        if not self.known:  # another version's button, or a forged id
            raise MalformedButton()
        await interaction.response.launch_activity()
