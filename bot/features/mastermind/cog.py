"""``/mastermind new|board|quit|help|forget-me``: the channel's game, whatever its kind.

The group only routes: each kind of game shows and ends its own board (its feature's cog),
the lifecycle is the shared GameService, forget-me belongs to the stats feature.
"""

from __future__ import annotations

from typing import Protocol

import discord
from discord import app_commands
from discord.ext import commands

from engine import CLASSIC

from ...core.enums import GameKind
from ...core.games import GameService
from ...core.records import GameRecord
from ...ui.options import RULE_DESCRIPTIONS, Colors, MaxGuesses, Pegs, make_rules
from ...ui.responses import cog_of
from ..breaker.cog import BreakerCog
from ..breaker.render import help_embed
from ..challenge.cog import ChallengeCog
from ..hints.cog import HintsCog
from ..match.cog import MatchCog
from ..stats.cog import StatsCog


class BoardOwner(Protocol):
    """What a kind of game's cog does for ``/mastermind board`` and ``quit``."""

    async def show_board(self, interaction: discord.Interaction, game: GameRecord) -> None: ...

    async def show_ended(self, interaction: discord.Interaction, game: GameRecord) -> None: ...


OWNERS: dict[GameKind, type[BreakerCog] | type[ChallengeCog]] = {
    GameKind.BREAKER: BreakerCog,
    GameKind.CHALLENGE: ChallengeCog,
}


def owner_of(interaction: discord.Interaction, game: GameRecord) -> BoardOwner:
    return cog_of(interaction, OWNERS[game.kind])


@app_commands.guild_only()
class MastermindCog(
    commands.GroupCog, group_name="mastermind", group_description="Play Mastermind in this channel"
):
    def __init__(self, games: GameService):
        self.games = games
        super().__init__()

    @app_commands.command(name="new", description="Start a game here: I pick a secret code")
    @app_commands.describe(**RULE_DESCRIPTIONS,
                           setter="me: you set the code (privately) and the others break it")
    @app_commands.choices(setter=[app_commands.Choice(name="me (I set the code)", value="me")])
    async def new(
        self,
        interaction: discord.Interaction,
        pegs: Pegs = CLASSIC.pegs,
        colors: Colors = CLASSIC.colors,
        max_guesses: MaxGuesses = CLASSIC.max_guesses,
        repeats: bool = CLASSIC.repeats,
        setter: str | None = None,
    ) -> None:
        rules = make_rules(pegs, colors, max_guesses, repeats)
        if setter == "me":
            await cog_of(interaction, MatchCog).ask_setter_code(interaction, rules)
            return
        await cog_of(interaction, BreakerCog).start(interaction, rules)

    @app_commands.command(name="board", description="Show this channel's game board")
    async def board(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None  # guild-only
        matches = cog_of(interaction, MatchCog)
        match = await matches.running(interaction.channel_id)
        if match is not None:
            await matches.show_board(interaction, match)
            return
        game = await self.games.running(interaction.channel_id)
        await owner_of(interaction, game).show_board(interaction, game)

    @app_commands.command(name="quit", description="Give up this channel's game and reveal code")
    async def quit(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        if await cog_of(interaction, MatchCog).quit(interaction):
            return
        permissions = interaction.permissions
        game = await self.games.quit(
            channel_id=interaction.channel_id,
            user_id=interaction.user.id,
            can_manage=bool(permissions and permissions.manage_messages),
            action_id=interaction.id,
        )
        await owner_of(interaction, game).show_ended(interaction, game)

    @app_commands.command(name="help", description="How to play and how to read the pegs")
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=help_embed(), ephemeral=True)

    @app_commands.command(name="hint",
                          description="A hint for this channel's game (shown to all, recorded)")
    async def hint(self, interaction: discord.Interaction) -> None:
        await cog_of(interaction, HintsCog).hint(interaction)

    @app_commands.command(name="forget-me",
                          description="Delete your stats and unlink your name from past games")
    async def forget_me(self, interaction: discord.Interaction) -> None:
        await cog_of(interaction, StatsCog).ask_forget(interaction)
