"""``/mastermind settings``: the server's settings, shown privately; changed by members
with Manage Server, each change logged with who made it."""

from __future__ import annotations

import discord
from discord.ext import commands

from engine import Rules

from ...ui.options import make_rules
from ...ui.responses import cog_of
from .render import settings_embed
from .service import Changes, SettingsService


def rules_for(interaction: discord.Interaction, pegs: int | None, colors: int | None,
              max_guesses: int | None, repeats: bool | None) -> Rules:
    """A new game's rules: the options given, the server's default rules for the rest."""
    default = cog_of(interaction, SettingsCog).service.default_rules(interaction.guild_id)
    return make_rules(pegs or default.pegs, colors or default.colors,
                      max_guesses or default.max_guesses,
                      default.repeats if repeats is None else repeats)


class SettingsCog(commands.Cog, name="settings"):
    def __init__(self, service: SettingsService):
        self.service = service

    async def settings(self, interaction: discord.Interaction, asked: Changes) -> None:
        assert interaction.guild_id is not None  # guild-only
        settings, changed = await self.service.change(interaction.guild_id,
                                                      interaction.user.id, asked,
                                                      interaction.id)
        log = await self.service.recent(interaction.guild_id)
        server = interaction.guild.name if interaction.guild else "this server"
        await interaction.response.send_message(
            embed=settings_embed(server, settings, self.service.default_idle_hours, changed,
                                 log), ephemeral=True)
