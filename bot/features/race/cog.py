"""``/race`` and its buttons, the channel's standings board kept up to date as racers move,
and the sweep that starts lobbies and ends races on time in every process."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands, tasks

from i18n import speaking, tr

from ...core.races import RaceRecord
from ...core.records import GameRecord
from ...ui.buttons import cog_of
from ...ui.options import NO_RULE_OPTIONS, RuleOptions, display_name, with_rule_options
from ...ui.places import require_shared_answers, usable
from ...ui.responses import respond, update
from ...ui.translation import publicly, server_locale
from ..breaker.cog import BreakerCog
from ..settings.cog import rules_for
from .buttons import RaceAction, RaceButton, drawn_status
from .errors import RaceError
from .render import (
    dropped_words,
    joined_words,
    left_words,
    result_embed,
    standings_embed,
    standings_view,
)
from .service import RaceService

if TYPE_CHECKING:
    from ...app import MastermindBot

log = logging.getLogger(__name__)

#: How often each process looks for lobbies to start and races out of time.
SWEEP_SECONDS = 5.0


class RaceCog(commands.Cog, name="race"):
    def __init__(self, bot: MastermindBot, service: RaceService):
        self.bot = bot
        self.service = service
        self._tasks: set[asyncio.Task[Any]] = set()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(RaceButton)
        self.sweeping.start()

    async def cog_unload(self) -> None:
        self.sweeping.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=5)
        self.bot.remove_dynamic_items(RaceButton)

    # ---- the command ----------------------------------------------------------------------
    @app_commands.command(name="race", description="Race everyone here to break the same "
                                                   "code, each on a board of their own")
    @usable(dms=False)
    @with_rule_options
    async def race(self, interaction: discord.Interaction,
                   asked: RuleOptions = NO_RULE_OPTIONS) -> None:
        assert interaction.channel_id is not None  # not in the bot's DM (see usable)
        require_shared_answers(interaction, tr("a race in the channel"))
        race = await self.service.open(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            user_id=interaction.user.id, user_name=display_name(interaction.user),
            rules=rules_for(interaction, asked), action_id=interaction.id)
        with publicly(interaction):
            embed, view = standings_embed(race), standings_view(race)
        message_id = await respond(interaction, embed=embed, view=view)
        if message_id is not None:
            await self.service.set_board_message(race.id, message_id)

    # ---- the buttons ------------------------------------------------------------------------
    async def on_button(self, interaction: discord.Interaction, action: RaceAction,
                        race_id: int) -> None:
        try:
            await self._act(interaction, action, race_id)
        except RaceError as refused:
            self._redraw_if_behind(interaction, refused.race)
            raise

    def _redraw_if_behind(self, interaction: discord.Interaction, race: RaceRecord) -> None:
        """A refused click on the race's board that shows an older state than the race's
        (its lobby started, or the race ended, on the way: nothing else redraws it then)."""
        message = interaction.message
        if message is None or message.id != race.board_message_id:
            return
        if drawn_status(message, race.id) is not (race.status if race.open else None):
            self.bot.rest_budget.cosmetic(message.id, lambda: self._refresh(race.id))

    async def _act(self, interaction: discord.Interaction, action: RaceAction,
                   race_id: int) -> None:
        user = interaction.user
        match action:
            case RaceAction.JOIN:
                race = await self.service.join(race_id, user_id=user.id,
                                               user_name=display_name(user))
                await self._update(interaction, race)
                await send_ephemeral_words(interaction, joined_words(race))
            case RaceAction.START:
                started = await self.service.start(race_id, user_id=user.id)
                await self._update(interaction, started.race)
                if started.dropped:  # said in the channel: the board's next edit keeps no note
                    with publicly(interaction):
                        note = dropped_words(started.dropped)
                    await interaction.followup.send(note, allowed_mentions=discord.AllowedMentions(
                        users=[discord.Object(u) for u in started.dropped]))
            case RaceAction.LEAVE:
                race = await self.service.leave(race_id, user_id=user.id,
                                                action_id=interaction.id)
                await self._update(interaction, race)
                await send_ephemeral_words(interaction, left_words(race))
                await self._announce(race.id)
            case RaceAction.BOARD:
                race, board = await self.service.board_of(race_id, user.id)
                if not race.open:  # out of time as they asked: the board shows the end
                    await self._announce(race.id)
                await cog_of(interaction, BreakerCog).show_board(interaction, board)

    async def _update(self, interaction: discord.Interaction, race: RaceRecord,
                      note: str | None = None) -> None:
        """The clicked board (the race's one board) shows the race as it now stands."""
        with publicly(interaction):
            embed, view = standings_embed(race), standings_view(race)
            if note:
                embed.set_footer(text=note[:2048])
        if interaction.message is not None and interaction.message.id == race.board_message_id:
            await update(interaction, embed=embed, view=view)
            await self._catch_up(race)
        else:  # a button on a message that is not the race's board (forwarded, or old)
            await respond(interaction, embed=embed, view=view, ephemeral=True)

    # ---- racers' moves, on the standings ----------------------------------------------------
    @commands.Cog.listener()
    async def on_game_moved(self, game: GameRecord, user: discord.abc.User) -> None:
        """A racer moved: the standings change (through the REST budget, newest edit only);
        a board that ended may have ended the race, which is announced at once."""
        await self._moved(game)

    @commands.Cog.listener()
    async def on_activity_moved(self, game_id: int) -> None:
        """A racer played their board in the Activity: the same as in the chat."""
        game = await self.service.games.get(game_id)
        if game is not None:
            await self._moved(game)

    async def _moved(self, game: GameRecord) -> None:
        if game.race_id is None:
            return
        race = await self.service.head(game.race_id)
        if race is None:
            return
        if not game.active and not race.open:
            self._soon(self._announce(race.id))
        elif race.board_message_id is not None:
            self.bot.rest_budget.cosmetic(race.board_message_id,
                                          lambda: self._refresh(race.id))

    def _soon(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _locale(self, race: RaceRecord) -> str | None:
        guild = self.bot.get_guild(race.guild_id) if race.guild_id else None
        return server_locale(self.bot.services.settings.language(race.guild_id),
                             guild.preferred_locale.value if guild else None)

    def _channel(self, race: RaceRecord) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(race.channel_id, guild_id=race.guild_id)

    async def _refresh(self, race_id: int) -> bool:
        """Edit the race's board to the race as stored now; whether Discord took it.

        A board drawn before the race moved on is drawn again (:meth:`_catch_up`): the
        race only moves forward (lobby, running, over), so this ends."""
        race = await self.service.get(race_id)
        if race is None or not await self._edit(race):
            return False
        await self._catch_up(race)
        return True

    async def _catch_up(self, shown: RaceRecord) -> None:
        """The board was just drawn from ``shown``: if the race has moved on since (another
        process started or ended it, and drew its board before this edit landed), it is
        drawn again, so the latest state is the last edit."""
        now = await self.service.head(shown.id)
        if now is not None and now.status is not shown.status:
            await self._refresh(shown.id)

    async def _edit(self, race: RaceRecord) -> bool:
        if race.board_message_id is None:
            return False
        with speaking(self._locale(race)):
            embed, view = standings_embed(race), standings_view(race)
        try:
            await self._channel(race).get_partial_message(race.board_message_id).edit(
                embed=embed, view=view)
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as exc:
            log.info("race %s: standings not updated (%s)", race.id, exc)
            return False
        return True

    async def _announce(self, race_id: int) -> None:
        """A race that ended: its board shows the end, and the result is posted, once
        across processes (whoever claims it first; a post Discord refused for a moment of
        its own, a 5xx or 429, is claimed again by the next sweep)."""
        try:
            if not await self.service.claim_announcement(race_id):
                return
            race = await self.service.get(race_id)
            if race is None:
                return
            await self._refresh(race_id)
            with speaking(self._locale(race)):
                embed = result_embed(race)
            await self._channel(race).send(embed=embed)
        except discord.HTTPException as exc:  # Discord answered: the message is not there
            log.warning("race %s: the result was not posted (%s)", race_id, exc)
            if exc.status >= 500 or exc.status == 429:
                await self.service.release_announcement(race_id)
        except (aiohttp.ClientError, TimeoutError) as exc:  # posted or not: never twice
            log.warning("race %s: the result may not be posted (%s)", race_id, exc)

    # ---- the sweep ----------------------------------------------------------------------------
    @tasks.loop(seconds=SWEEP_SECONDS)
    async def sweeping(self) -> None:
        try:
            await self.sweep()
        except Exception:  # the next sweep tries again
            log.exception("race sweep failed")

    async def sweep(self) -> None:
        """Start the lobbies whose minute is up, end the races out of time, and show it."""
        for race in await self.service.sweep():
            if race.open:
                await self._refresh(race.id)
            else:
                await self._announce(race.id)

    @sweeping.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()


async def send_ephemeral_words(interaction: discord.Interaction, words: str) -> None:
    """A word to the clicker alone (in their language), after the board's own update."""
    await interaction.followup.send(words, ephemeral=True)
