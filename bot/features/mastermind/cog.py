"""``/mastermind new|board|quit|hint|settings|help|forget-me``: the channel's game, or the
player's private one.

The group only routes: each kind of game shows and ends its own board (its feature's cog),
the lifecycle is the shared GameService, forget-me belongs to the stats feature.
"""

from __future__ import annotations

from typing import Protocol

import discord
from discord import app_commands
from discord.ext import commands

from engine.rules import MAX_COLORS, MAX_GUESSES, MAX_PEGS, MIN_COLORS, MIN_GUESSES, MIN_PEGS
from i18n import tr

from ...core.enums import GameKind
from ...core.errors import BadRules
from ...core.records import GameRecord
from ...services.games import GameService
from ...ui.buttons import cog_of
from ...ui.followups import moved
from ...ui.options import (
    NO_RULE_OPTIONS,
    PRIVATE_DESCRIPTION,
    WHICH_CHOICES,
    WHICH_DESCRIPTION,
    Colors,
    MaxGuesses,
    Pegs,
    RuleOptions,
    which,
    with_rule_options,
)
from ...ui.places import (
    NotHere,
    in_bot_dm,
    require_server_with_bot,
    require_shared_answers,
    usable,
)
from ..breaker.cog import BreakerCog
from ..challenge.cog import ChallengeCog
from ..hints.cog import HintsCog
from ..match.cog import MatchCog
from ..settings.cog import LANGUAGE_CHOICES, SEASON_CHOICES, SettingsCog, rules_for, season_choice
from ..settings.service import (
    MAX_PAIR_CAP,
    MAX_RACE_MINUTES,
    MIN_PAIR_CAP,
    MIN_RACE_MINUTES,
    Changes,
)
from ..stats.cog import StatsCog
from .buttons import HelpButton
from .help import Page, help_embed, help_view


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


@usable()
class MastermindCog(
    commands.GroupCog, group_name="mastermind",
    group_description="Play Mastermind in this channel, or a game of your own"
):
    def __init__(self, bot: commands.Bot, games: GameService):
        self.bot = bot
        self.games = games
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(HelpButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(HelpButton)

    @app_commands.command(name="new", description="Start a game here: I pick a secret code")
    @app_commands.describe(setter="me: you set the code (privately) and the others break it",
                           private=PRIVATE_DESCRIPTION)
    @app_commands.choices(setter=[app_commands.Choice(name="me (I set the code)", value="me")])
    @with_rule_options
    async def new(
        self,
        interaction: discord.Interaction,
        asked: RuleOptions = NO_RULE_OPTIONS,
        setter: str | None = None,
        private: bool | None = None,
    ) -> None:
        rules = rules_for(interaction, asked)
        if setter == "me":
            if in_bot_dm(interaction):
                raise NotHere(tr("Here in our DM nobody else could break your code."),
                              tr("`/challenge` lets me try to break it."))
            if private:
                raise BadRules(tr("a private game's code is mine to pick: with `setter:me` "
                                  "the others in the channel break yours"))
            require_shared_answers(interaction, tr("a game for the channel"))
            await cog_of(interaction, MatchCog).ask_setter_code(interaction, rules)
            return
        await cog_of(interaction, BreakerCog).start(interaction, rules, private=bool(private))

    @app_commands.command(name="board",
                          description="Show this channel's game board, or your private game's")
    @app_commands.describe(game=WHICH_DESCRIPTION)
    @app_commands.choices(game=WHICH_CHOICES)
    async def board(self, interaction: discord.Interaction, game: str | None = None) -> None:
        assert interaction.channel_id is not None
        private = await self.games.private_meant(channel_id=interaction.channel_id,
                                                 user_id=interaction.user.id, which=which(game))
        if private is not None:
            await owner_of(interaction, private).show_board(interaction, private)
            return
        matches = cog_of(interaction, MatchCog)
        match = await matches.running(interaction.channel_id)
        if match is not None:
            await matches.show_board(interaction, match)
            return
        running = await self.games.running(interaction.channel_id)
        await owner_of(interaction, running).show_board(interaction, running)

    @app_commands.command(name="quit", description="Give up this channel's game (or your "
                                                   "private one) and reveal the code")
    @app_commands.describe(game=WHICH_DESCRIPTION)
    @app_commands.choices(game=WHICH_CHOICES)
    async def quit(self, interaction: discord.Interaction, game: str | None = None) -> None:
        assert interaction.channel_id is not None
        private = await self.games.private_meant(channel_id=interaction.channel_id,
                                                 user_id=interaction.user.id, which=which(game))
        if private is not None:
            ended = await self.games.quit_private(user_id=interaction.user.id,
                                                  game_id=private.id, action_id=interaction.id)
            await owner_of(interaction, ended).show_ended(interaction, ended)
            moved(interaction, ended)  # a racer's forfeit: the race's standings show it
            return
        if await cog_of(interaction, MatchCog).quit(interaction):
            return
        permissions = interaction.permissions
        ended = await self.games.quit(
            channel_id=interaction.channel_id,
            user_id=interaction.user.id,
            can_manage=bool(permissions and permissions.manage_messages),
            action_id=interaction.id,
        )
        await owner_of(interaction, ended).show_ended(interaction, ended)
        moved(interaction, ended)

    @app_commands.command(name="help", description="How to play and how to read the pegs")
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=help_embed(), view=help_view(),
                                                ephemeral=True)

    async def show_help(self, interaction: discord.Interaction, page: Page) -> None:
        """A help button: its page, in the message the button is on."""
        await interaction.response.edit_message(embed=help_embed(page), view=help_view(page))

    @app_commands.command(name="hint",
                          description="A hint for this channel's game (shown to all, recorded)")
    async def hint(self, interaction: discord.Interaction) -> None:
        if in_bot_dm(interaction):
            raise NotHere(tr("Hints are for a channel's shared games, and every game in our "
                             "DM is yours alone."), tr("`/mastermind board` shows your game."))
        await cog_of(interaction, HintsCog).hint(interaction)

    @app_commands.command(name="settings",
                          description="This server's Mastermind settings (Manage Server)")
    @app_commands.describe(
        hints="Allow /mastermind hint in this server's games",
        pegs=f"Default pegs for /mastermind new ({MIN_PEGS}-{MAX_PEGS})",
        colors=f"Default colours for /mastermind new ({MIN_COLORS}-{MAX_COLORS})",
        max_guesses=f"Default guesses for /mastermind new ({MIN_GUESSES}-{MAX_GUESSES})",
        repeats="Default: may a colour repeat in /mastermind new?",
        idle_hours="Hours without a move before a game is abandoned",
        allow_channel="Allow games in this channel (once one is listed, only listed ones)",
        disallow_channel="Take this channel off the list of channels that allow games",
        all_channels="True: allow games in every channel again",
        daily_posts="Post /daily share results in the channel (False: only privately)",
        language="The language of this server's public boards (default: the server's own)",
        seasons="How often rating seasons start over (default: monthly)",
        pair_cap="Rated games two players may play together a day (default: 3)",
        race_minutes="A race's time limit in minutes (default: 10)",
    )
    @app_commands.choices(language=LANGUAGE_CHOICES, seasons=SEASON_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction,
        hints: bool | None = None,
        pegs: Pegs | None = None,
        colors: Colors | None = None,
        max_guesses: MaxGuesses | None = None,
        repeats: bool | None = None,
        idle_hours: app_commands.Range[float, 0.1, 720.0] | None = None,
        allow_channel: discord.TextChannel | None = None,
        disallow_channel: discord.TextChannel | None = None,
        all_channels: bool | None = None,
        daily_posts: bool | None = None,
        language: str | None = None,
        seasons: str | None = None,
        pair_cap: app_commands.Range[int, MIN_PAIR_CAP, MAX_PAIR_CAP] | None = None,
        race_minutes: app_commands.Range[int, MIN_RACE_MINUTES, MAX_RACE_MINUTES] | None = None,
    ) -> None:
        require_server_with_bot(interaction, tr("Server settings"))
        if not interaction.permissions.manage_guild:
            raise app_commands.MissingPermissions(["manage_guild"])
        asked = Changes(hints, pegs, colors, max_guesses, repeats, idle_hours,
                        allow_channel.id if allow_channel else None,
                        disallow_channel.id if disallow_channel else None,
                        all_channels, daily_posts, language, season_choice(seasons),
                        pair_cap, race_minutes)
        await cog_of(interaction, SettingsCog).settings(interaction, asked)

    @app_commands.command(name="forget-me",
                          description="Delete your stats and unlink your name from past games")
    async def forget_me(self, interaction: discord.Interaction) -> None:
        await cog_of(interaction, StatsCog).ask_forget(interaction)
