"""``/guess``, and starting and showing breaker games: people break the bot's code, in a
channel or alone in a private game (whose boards only its player sees)."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from engine import Rules
from i18n import tr

from ...core.enums import GameKind, Which
from ...core.errors import GameOver, StorageUnavailable
from ...core.records import GameRecord
from ...ui.boards import collapse_soon
from ...ui.followups import moved
from ...ui.messages import abandoned_note, mention
from ...ui.options import WHICH_CHOICES, WHICH_DESCRIPTION, CodeText, display_name, which
from ...ui.pegs import typed_code
from ...ui.places import in_bot_dm, require_shared_answers, usable
from ...ui.responses import respond
from ...ui.translation import for_board
from ..match.cog import after_move
from ..picker.purposes import register
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

    async def start(self, interaction: discord.Interaction, rules: Rules, *,
                    private: bool = False) -> None:
        """``/mastermind new``: a new board, posted as the answer, remembered as the game's;
        ``private`` (always, in the bot's DM): the player's own game, shown to them alone."""
        assert interaction.channel_id is not None
        private = private or in_bot_dm(interaction)
        if not private:
            require_shared_answers(interaction, tr("a game for the channel"))
        started = await self.service.new_game(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            user_id=interaction.user.id, user_name=display_name(interaction.user), rules=rules,
            action_id=interaction.id, private=private,
        )
        abandoned = started.abandoned
        with for_board(interaction, private=private):  # said on the new board, and the old
            note = abandoned_note(abandoned) if abandoned else None
        await self._show(interaction, started.game, note=note)
        moved(interaction, started.game)
        if abandoned and note and not abandoned.private:  # its board no longer looks live
            collapse_soon(interaction, abandoned.board_message_id, note,
                          v2=abandoned.kind is GameKind.CHALLENGE)

    async def play_again(self, interaction: discord.Interaction, game_id: int) -> None:
        """"Play again" on a finished board: a new game here with the same rules (a private
        one after a private one: only its player saw that board)."""
        game = await self.service.games.get(game_id)
        if game is None:
            raise GameOver(None)
        await self.start(interaction, game.rules, private=game.private)

    async def show_board(self, interaction: discord.Interaction, game: GameRecord) -> None:
        await self._show(interaction, game)

    async def show_ended(self, interaction: discord.Interaction, game: GameRecord) -> None:
        with for_board(interaction, private=game.private):
            note = tr("You ended the game.") if game.private else tr(
                "{player} ended the game.", player=mention(interaction.user.id))
        await self._show(interaction, game, note=note)

    async def _show(self, interaction: discord.Interaction, game: GameRecord, *,
                    note: str | None = None) -> None:
        """Answer with the game's board, which becomes its one live board: the board it
        replaces shrinks to the move it showed. A private game's board is the answer to its
        player alone (Discord lets nobody edit such a message later, so none shrinks). Both
        speak their readers' language: the channel's, or the private player's (``note``
        must be said in it too)."""
        games = self.service.games
        names = await games.names(g.player_id for g in game.guesses)
        with for_board(interaction, private=game.private):
            embed, view = board_embed(game, note=note, names=names), board_view(game)
        message_id = await respond(interaction, embed=embed, view=view, ephemeral=game.private)
        if message_id is None or game.private:
            return
        try:
            replaced = await games.swap_board(game.id, message_id, len(game.guesses))
        except StorageUnavailable as exc:  # the board is shown; only the trail is not tidied
            log.warning("game %s: board %s not recorded as live (%s)", game.id, message_id,
                        exc.reason)
            return
        if replaced is not None:
            old, turn = replaced
            with for_board(interaction, private=False):  # drawn now, shown by a later edit
                line = collapsed_line(game, turn, names)
            collapse_soon(interaction, old, line)

    @app_commands.command(name="guess",
                          description="Guess the code of this channel's game or your private one")
    @app_commands.describe(code="Your guess: digits like 1123, letters like RROY, or colour emoji",
                           game=WHICH_DESCRIPTION)
    @app_commands.choices(game=WHICH_CHOICES)
    @usable()
    async def guess(self, interaction: discord.Interaction, code: CodeText,
                    game: str | None = None) -> None:
        played = await self.guess_for(interaction, code, meant=which(game))
        await self.after_guess(interaction, played)

    async def guess_for(self, interaction: discord.Interaction, text: str, *,
                        game_id: int | None = None, meant: Which = Which.AUTO) -> GameRecord:
        """Store a guess, keyed by the interaction: in game ``game_id`` if given (a
        picker's), else in the game ``/guess`` means here; returns the game with it."""
        if game_id is not None:
            return await self.service.guess_in(
                game_id, user_id=interaction.user.id, user_name=display_name(interaction.user),
                text=typed_code(text), action_id=interaction.id)
        assert interaction.channel_id is not None
        return await self.service.guess(
            channel_id=interaction.channel_id, user_id=interaction.user.id,
            user_name=display_name(interaction.user), text=typed_code(text),
            action_id=interaction.id, which=meant)

    async def after_guess(self, interaction: discord.Interaction, game: GameRecord) -> None:
        """The new board (in the channel; a private game's to its player alone, the one it
        replaces shrinks), then what the move sets off (a match's next half-round)."""
        await self._show(interaction, game)
        await after_move(interaction, game)
