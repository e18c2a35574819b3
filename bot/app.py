"""The bot object: opens the database, loads the cogs and syncs the slash commands."""

from __future__ import annotations

import logging
from pathlib import Path

import discord
from discord.ext import commands

from .breaker import DEFAULT_IDLE_TIMEOUT, BreakerService
from .challenge import ChallengeService
from .clock import Clock, system_clock
from .cogs.breaker import GuessCog, MastermindCog
from .cogs.challenge import ChallengeCog
from .cogs.stats import StatsCog
from .config import Settings
from .replies import MastermindTree
from .stats import StatsService
from .store import Database
from .views.challenge import ChallengeButton
from .views.stats import ForgetButton, PageButton

log = logging.getLogger(__name__)


class MastermindBot(commands.Bot):
    def __init__(
        self,
        *,
        database_path: str | Path,
        dev_guild_id: int | None = None,
        idle_timeout: float = DEFAULT_IDLE_TIMEOUT,
        clock: Clock = system_clock,
    ):
        # The bot has no voice features: don't warn about voice libraries on every start.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True  # slash commands need no privileged intents
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=MastermindTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.database_path = Path(database_path)
        self.dev_guild_id = dev_guild_id
        self.idle_timeout = idle_timeout
        self.clock = clock
        self.db: Database | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> MastermindBot:
        return cls(
            database_path=settings.database_path,
            dev_guild_id=settings.dev_guild_id,
            idle_timeout=settings.idle_timeout,
        )

    async def setup_hook(self) -> None:
        self.db = await Database.open(self.database_path)
        log.info("database %s at schema version %s", self.database_path,
                 await self.db.schema_version())
        self.breaker = BreakerService(self.db, clock=self.clock, idle_timeout=self.idle_timeout)
        self.challenges = ChallengeService(self.breaker)
        await self.add_cog(MastermindCog(self.breaker))
        await self.add_cog(GuessCog(self.breaker))
        self.stats = StatsService(self.db, clock=self.clock)
        await self.add_cog(ChallengeCog(self.challenges))
        await self.add_cog(StatsCog(self.stats))
        self.add_dynamic_items(ChallengeButton, PageButton, ForgetButton)
        await self.sync_commands()

    async def sync_commands(self) -> None:
        if self.dev_guild_id:
            guild = discord.Object(id=self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to server %s", len(synced), self.dev_guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands (they can take a while to appear)", len(synced))

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            if self.db is not None:
                await self.db.close()
                self.db = None
                log.info("database closed")
