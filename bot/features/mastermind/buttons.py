"""The help pages' buttons: persistent, the custom_id names the page (``mmh:<page>``)."""

from __future__ import annotations

import re

import discord

from ...core.errors import MalformedButton
from ...ui.buttons import ReportingButton, cog_of
from .help import Page


class HelpButton(ReportingButton, prefix="mmh"):
    """Shows one page of help in the message it is on; anyone who sees it may turn it."""

    def __init__(self, page: Page | None, *, label: str = "?", current: bool = False):
        self.page = page
        super().__init__(discord.ui.Button(
            label=label, custom_id=f"mmh:{page.value if page else 'unknown'}",
            style=discord.ButtonStyle.primary if current else discord.ButtonStyle.secondary))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> HelpButton:
        try:
            return cls(Page(match["body"]))
        except ValueError:  # a page this version doesn't have (or a forged id)
            return cls(None)

    async def run(self, interaction: discord.Interaction) -> None:
        if self.page is None:
            raise MalformedButton()
        from .cog import MastermindCog  # the cog registers this button: import it when clicked

        await cog_of(interaction, MastermindCog).show_help(interaction, self.page)
