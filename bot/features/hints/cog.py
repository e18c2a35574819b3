"""``/mastermind hint``: check, defer, work the hint out in a worker thread, record it,
show it to the channel."""

from __future__ import annotations

import asyncio

import discord
from discord.ext import commands

from ...ui.responses import respond
from ...ui.translation import publicly
from .render import hint_embed
from .service import HintService


class HintsCog(commands.Cog, name="hints"):
    def __init__(self, service: HintService):
        self.service = service

    async def hint(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        game = await self.service.check(guild_id=interaction.guild_id,
                                        channel_id=interaction.channel_id)
        await interaction.response.defer(thinking=True)
        hint = await asyncio.to_thread(self.service.work_out, game)
        game = await self.service.commit(game, hint, user_id=interaction.user.id,
                                         action_id=interaction.id)
        with publicly(interaction):  # shown to everyone here
            embed = hint_embed(game, hint, interaction.user.id)
        await respond(interaction, embed=embed)
