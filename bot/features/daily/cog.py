"""``/daily play|share|leaderboard``: today's code, privately; the grid and the day's board
publicly."""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands
from discord.ext import commands

from i18n import tr

from ...core.records import DailyPlay
from ...ui.options import CodeText, display_name
from ...ui.places import usable
from ...ui.translation import publicly
from ..picker.purposes import register
from .picking import DailyPurpose, guess_view
from .render import daily_embed, daily_view, leaderboard_embed, share_text
from .service import DailyService


@usable()
class DailyCog(commands.GroupCog, group_name="daily",
               group_description="Today's code: the same for everyone, once a day"):
    def __init__(self, service: DailyService, posts_allowed: Callable[[int | None], bool]):
        self.service = service
        #: Does a server want daily results posted in its channels? (its settings)
        self.posts_allowed = posts_allowed
        super().__init__()

    async def cog_load(self) -> None:
        await self.service.start()
        register(DailyPurpose())

    @app_commands.command(name="play", description="Play today's code privately, or guess")
    @app_commands.describe(guess="Your guess, e.g. 1123 (leave out to see your board)")
    async def play(self, interaction: discord.Interaction, guess: CodeText | None = None
                   ) -> None:
        day = self.service.today()
        if guess is None:
            play = await self.service.play(day, interaction.user.id)
        else:
            play = await self.guess_for(interaction, guess)
        embed, view = await self.board(interaction, day, play)
        await interaction.response.send_message(
            embed=embed, view=view or discord.utils.MISSING, ephemeral=True)

    async def guess_for(self, interaction: discord.Interaction, text: str, *,
                        day: str | None = None) -> DailyPlay:
        """Store a guess at today's code (only if ``day`` is still today: a picker's)."""
        return await self.service.guess(
            user_id=interaction.user.id, user_name=display_name(interaction.user),
            guild_id=interaction.guild_id, text=text, action_id=interaction.id, day=day)

    async def board(self, interaction: discord.Interaction, day: str, play: DailyPlay | None
                    ) -> tuple[discord.Embed, discord.ui.View | None]:
        """The player's private board: Guess while it runs; once finished, the code, how
        the day went and Analyse."""
        here = everywhere = None
        if play is not None and play.finished:
            here = await self.service.standing(day, interaction.guild_id, interaction.user.id)
            everywhere = await self.service.standing(day, None, interaction.user.id)
        secret = self.service.secret(day) if play is not None and play.finished else None
        embed = daily_embed(day, play, secret=secret, here=here, everywhere=everywhere,
                            yesterday=self.service.yesterdays_secret())
        return embed, daily_view(day, play) or guess_view(day, interaction.user.id)

    @app_commands.command(name="share", description="Show your daily result here, no spoilers")
    async def share(self, interaction: discord.Interaction) -> None:
        play = await self.service.finished_play(self.service.today(), interaction.user.id)
        if self.posts_allowed(interaction.guild_id):
            with publicly(interaction):  # the channel reads it
                text = share_text(play, interaction.user.id)
            await interaction.response.send_message(text)
        else:
            note = tr("This server keeps daily results out of its channels: copy the grid if "
                      "you want to share it.")
            await interaction.response.send_message(
                f"{share_text(play, interaction.user.id)}\n\n-# {note}", ephemeral=True)

    @app_commands.command(name="leaderboard", description="How today's code went")
    @app_commands.describe(scope="This server or all servers (default: this server)")
    @app_commands.choices(scope=[app_commands.Choice(name="this server", value="server"),
                                 app_commands.Choice(name="all servers", value="global")])
    async def leaderboard(self, interaction: discord.Interaction, scope: str = "server"
                          ) -> None:
        guild = None if scope == "global" else interaction.guild_id
        standing = await self.service.standing(self.service.today(), guild,
                                               interaction.user.id)
        with publicly(interaction):  # posted in the channel
            name = tr("all servers") if guild is None else (
                interaction.guild.name if interaction.guild else "") or tr("this server")
            embed = leaderboard_embed(standing, name)
        await interaction.response.send_message(embed=embed)
