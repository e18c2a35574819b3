"""``/mastermind settings``: the server's settings, shown privately; changed by members
with Manage Server, each change logged with who made it."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands, tasks

from engine import Rules
from i18n import tr

from ...core.enums import Seasons
from ...ui.buttons import cog_of
from ...ui.options import RuleOptions
from ...ui.translation import public_locale
from .errors import BadSetting
from .render import settings_embed
from .service import LANGUAGES, SERVER_LANGUAGE, Changes, SettingsService

#: ``/mastermind settings language:``: each language by its own name, then the way back.
LANGUAGE_CHOICES = [
    *(app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()),
    app_commands.Choice(name="the server's own language", value=SERVER_LANGUAGE),
]


#: ``/mastermind settings seasons:``.
SEASON_CHOICES = [app_commands.Choice(name=name, value=value.value) for name, value in (
    ("off", Seasons.OFF), ("monthly", Seasons.MONTHLY), ("quarterly", Seasons.QUARTERLY))]


def season_choice(value: str | None) -> Seasons | None:
    """The cadence chosen; a value not on the list (a forged one) is refused."""
    if value is None:
        return None
    if value not in set(Seasons):
        raise BadSetting(tr("there is no season cadence {value}: choose one from the list",
                            value=repr(value)[:40]))
    return Seasons(value)


def rules_for(interaction: discord.Interaction, given: RuleOptions) -> Rules:
    """A new game's rules: the options given, the server's default rules for the rest."""
    return given.over(cog_of(interaction, SettingsCog).service.default_rules(
        interaction.guild_id))


log = logging.getLogger(__name__)

#: Seconds between re-reads of every server's settings: a change made through another
#: process on the same database (another shard) applies here within this time.
RELOAD_SECONDS = 15.0


class SettingsCog(commands.Cog, name="settings"):
    def __init__(self, service: SettingsService):
        self.service = service

    async def cog_load(self) -> None:
        self.reload.start()

    async def cog_unload(self) -> None:
        self.reload.cancel()

    @tasks.loop(seconds=RELOAD_SECONDS)
    async def reload(self) -> None:
        try:
            await self.service.load()
        except Exception as exc:  # closing, or the disk: keep the settings already read
            log.warning("could not re-read the server settings: %s", exc)

    async def settings(self, interaction: discord.Interaction, asked: Changes) -> None:
        assert interaction.guild_id is not None  # a server that added the bot (the group checks)
        settings, changed = await self.service.change(interaction.guild_id,
                                                      interaction.user.id, asked,
                                                      interaction.id)
        log = await self.service.recent(interaction.guild_id)
        server = interaction.guild.name if interaction.guild else tr("this server")
        await interaction.response.send_message(
            embed=settings_embed(server, settings, self.service.default_idle_hours, changed,
                                 log, public_locale(interaction)), ephemeral=True)
