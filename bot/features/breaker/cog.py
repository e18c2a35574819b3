"""``/guess``, and starting and showing breaker games: people break the bot's code."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from engine import Rules

from ...core.enums import GameKind
from ...core.errors import GameOver, StorageUnavailable
from ...core.records import GameRecord
from ...ui.boards import collapse_soon
from ...ui.followups import after_move
from ...ui.messages import abandoned_note, mention
from ...ui.options import CodeText, display_name
from ...ui.pegs import typed_code
from ...ui.responses import respond
from ..picker import register
from .buttons import PlayAgainButton, board_view
from .picking import GuessPurpose
from .render import board_embed, collapsed_line
from .service import BreakerService

log = logging.getLogger(__name__)


class BreakerCog(commands.Cog, name="breaker"):
    def __init__(self, bot: commands.Bot, service: BreakerService):
        self.bot = bot
        self.service = service

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PlayAgainButton)
        register(GuessPurpose())

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(PlayAgainButton)

    async def start(self, interaction: discord.Interaction, rules: Rules) -> None:
        """``/mastermind new``: a new board, posted as the answer, remembered as the game's."""
        assert interaction.channel_id is not None  # guild-only commands
        started = await self.service.new_game(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            user_id=interaction.user.id, user_name=display_name(interaction.user), rules=rules,
            action_id=interaction.id,
        )
        note = abandoned_note(started.abandoned) if started.abandoned else None
        await self._show(interaction, started.game, note=note)
        if started.abandoned and note:  # its board no longer looks live
            collapse_soon(interaction, started.abandoned.board_message_id, note,
                          v2=started.abandoned.kind is GameKind.CHALLENGE)

    async def play_again(self, interaction: discord.Interaction, game_id: int) -> None:
        """"Play again" on a finished board: a new game here with the same rules."""
        game = await self.service.games.get(game_id)
        if game is None:
            raise GameOver(None)
        await self.start(interaction, game.rules)

    async def show_board(self, interaction: discord.Interaction, game: GameRecord) -> None:
        await self._show(interaction, game)

    async def show_ended(self, interaction: discord.Interaction, game: GameRecord) -> None:
        await self._show(interaction, game, note=f"{mention(interaction.user.id)} ended the game.")

    async def _show(self, interaction: discord.Interaction, game: GameRecord, *,
                    note: str | None = None) -> None:
        """Answer with the game's board, which becomes its one live board: the board it
        replaces shrinks to the move it showed."""
        games = self.service.games
        names = await games.names(g.player_id for g in game.guesses)
        message_id = await respond(interaction, embed=board_embed(game, note=note, names=names),
                                   view=board_view(game))
        if message_id is None:
            return
        try:
            replaced = await games.swap_board(game.id, message_id, len(game.guesses))
        except StorageUnavailable as exc:  # the board is shown; only the trail is not tidied
            log.warning("game %s: board %s not recorded as live (%s)", game.id, message_id,
                        exc.reason)
            return
        if replaced is not None:
            old, turn = replaced
            collapse_soon(interaction, old, collapsed_line(game, turn, names))

    @app_commands.command(name="guess", description="Guess this channel's code, e.g. 1123")
    @app_commands.describe(code="Your guess: digits like 1123, letters like RROY, or colour emoji")
    @app_commands.guild_only()
    async def guess(self, interaction: discord.Interaction, code: CodeText) -> None:
        game = await self.guess_for(interaction, code)
        await self.after_guess(interaction, game)

    async def guess_for(self, interaction: discord.Interaction, text: str, *,
                        game_id: int | None = None) -> GameRecord:
        """Store a guess in the channel's game (only in game ``game_id``, if given: a
        picker's), keyed by the interaction; returns the game with it."""
        assert interaction.channel_id is not None  # guild-only, or a picker in a channel
        return await self.service.guess(
            channel_id=interaction.channel_id, user_id=interaction.user.id,
            user_name=display_name(interaction.user), text=typed_code(text),
            action_id=interaction.id, game_id=game_id)

    async def after_guess(self, interaction: discord.Interaction, game: GameRecord) -> None:
        """The new board in the channel (the one it replaces shrinks), then what the move
        sets off (a match's next half-round)."""
        await self._show(interaction, game)
        await after_move(interaction, game)
