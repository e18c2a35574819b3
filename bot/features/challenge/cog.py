"""``/challenge``, ``/feedback`` and the board's buttons: the bot breaks the code you think of.

Each move is checked first (a mistake is answered at once, privately), then deferred,
then committed by the service, then shown.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext

import discord
from discord import app_commands
from discord.ext import commands

from engine import Rules, possible_feedbacks, strongest_strategy
from engine.rules import MAX_PEGS
from i18n import tr

from ...core.enums import GameKind
from ...core.errors import GameOver, MalformedButton
from ...core.records import GameRecord
from ...ui.boards import collapse_soon
from ...ui.messages import abandoned_note
from ...ui.options import (
    NO_RULE_OPTIONS,
    PRIVATE_DESCRIPTION,
    STRATEGY_CHOICES,
    RuleOptions,
    chosen_strategy,
    display_name,
    with_rule_options,
)
from ...ui.pegs import typed_code
from ...ui.places import in_bot_dm, require_shared_answers, usable
from ...ui.responses import respond
from ...ui.translation import publicly
from ..match.cog import after_move
from ..picker.flow import close, show
from ..picker.purposes import register
from ..settings.cog import rules_for
from .buttons import Action, ChallengeButton
from .picking import RevealPurpose, reveal_picker, revealed
from .render import challenge_board, collapsed_line, ended_embed
from .service import ChallengeService, ChallengeState


class ChallengeCog(commands.Cog, name="challenge"):
    def __init__(self, bot: commands.Bot, service: ChallengeService):
        self.bot = bot
        self.service = service

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ChallengeButton)
        register(RevealPurpose())

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ChallengeButton)

    # ---- commands ---------------------------------------------------------------------------
    @app_commands.command(name="challenge", description="Think of a code: I will break it")
    @app_commands.describe(
        strategy="How I pick my guesses (default: the strongest for the size, optimal up to 4x6)",
        private=PRIVATE_DESCRIPTION,
    )
    @app_commands.choices(strategy=STRATEGY_CHOICES)
    @usable()
    @with_rule_options
    async def challenge(
        self,
        interaction: discord.Interaction,
        asked: RuleOptions = NO_RULE_OPTIONS,
        strategy: str | None = None,
        private: bool | None = None,
    ) -> None:
        assert interaction.channel_id is not None
        rules = rules_for(interaction, asked)  # the server's default rules for the rest
        await self.start(interaction, rules, chosen_strategy(strategy, rules),
                         private=bool(private))

    async def start(self, interaction: discord.Interaction, rules: Rules, strategy: str, *,
                    private: bool = False) -> None:
        """A new challenge for the user, its board posted as the answer; ``private``
        (always, in the bot's DM): the board is the player's alone."""
        assert interaction.channel_id is not None
        private = private or in_bot_dm(interaction)
        if not private:
            require_shared_answers(interaction, tr("a challenge for the channel"))
        await self.service.check_free(interaction.channel_id, interaction.user.id,
                                      private=private)
        deferred = await interaction.response.defer(thinking=True, ephemeral=private)
        state, abandoned = await self.service.start(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            user_id=interaction.user.id, user_name=display_name(interaction.user),
            rules=rules, strategy=strategy, action_id=interaction.id, private=private,
        )
        with speaking_for(interaction, state.game):
            note = abandoned_note(abandoned) if abandoned else None
            view = challenge_board(state, note=note)
        message = await interaction.followup.send(view=view, wait=True)
        board = deferred.message_id if deferred else None
        await self.service.games.set_board_message(state.game.id, board or message.id)
        if abandoned and not abandoned.private:  # its board no longer looks live
            with publicly(interaction):
                line = abandoned_note(abandoned)
            collapse_soon(interaction, abandoned.board_message_id, line,
                          v2=abandoned.kind is GameKind.CHALLENGE)

    @app_commands.command(name="feedback", description="Answer my guess in your challenge")
    @app_commands.describe(black="Right colour in the right place",
                           white="Right colour in the wrong place")
    @usable()
    async def feedback(
        self,
        interaction: discord.Interaction,
        black: app_commands.Range[int, 0, MAX_PEGS],
        white: app_commands.Range[int, 0, MAX_PEGS],
    ) -> None:
        assert interaction.channel_id is not None
        game = await self.service.in_channel(interaction.channel_id, interaction.user.id)
        reply = self.service.check_reply(game, (black, white), turn=None,
                                         action_id=interaction.id,
                                         player_id=interaction.user.id)
        deferred = await interaction.response.defer(thinking=True, ephemeral=game.private)
        board = deferred.message_id if deferred else None
        state = await self.service.commit_reply(reply, board_message_id=board)
        await self._post(interaction, state)
        await after_move(interaction, state.game)
        if game.board_message_id != board and not game.private:
            with publicly(interaction):
                line = collapsed_line(state, len(game.replies) + 1)
            collapse_soon(interaction, game.board_message_id, line, v2=True)

    # ---- what the /mastermind group asks of a running challenge ------------------------------
    async def show_board(self, interaction: discord.Interaction, game: GameRecord) -> None:
        deferred = await interaction.response.defer(thinking=True, ephemeral=game.private)
        state = await self.service.board(game)
        message = await self._post(interaction, state)
        board = (deferred.message_id if deferred else None) or message.id
        await self.service.games.set_board_message(game.id, board)
        if game.board_message_id != board and not game.private:
            with publicly(interaction):
                line = collapsed_line(state, len(game.replies))
            collapse_soon(interaction, game.board_message_id, line, v2=True)

    async def show_ended(self, interaction: discord.Interaction, game: GameRecord) -> None:
        state = ChallengeState(game)
        if game.private:  # its player's alone: the finished board, with its buttons
            await interaction.response.send_message(view=challenge_board(state),
                                                    ephemeral=True)
            return
        with publicly(interaction):
            said = ended_embed(state, interaction.user.id)
            # the live board becomes the finished one: no prompt, no reply buttons
            finished = challenge_board(state)
        await respond(interaction, embed=said)
        collapse_soon(interaction, game.board_message_id, view=finished)

    # ---- the board's buttons, and the reveal --------------------------------------------------
    async def on_button(self, interaction: discord.Interaction, action: Action, game_id: int,
                        parts: tuple[int, ...]) -> None:
        if action is Action.AGAIN:  # anyone may start their own, with the same rules
            finished = await self.service.games.get(game_id)
            if finished is None or finished.kind is not GameKind.CHALLENGE:
                raise GameOver(None)
            await self.start(interaction, finished.rules,
                             finished.strategy or strongest_strategy(finished.rules),
                             private=finished.private)
            return
        game = await self.service.load(game_id, interaction.user.id)
        if action is Action.REVEAL:  # a picker only the challenger sees
            await show(interaction, reveal_picker(interaction.user.id, game))
        elif action in (Action.BLACK, Action.OTHER_BLACK):
            self.service.check_turn(game, parts[0])  # the parser gave each action its parts
            black = parts[1] if action is Action.BLACK else None
            if black is not None and game.pending_guess is not None and black not in {
                    f.black for f in possible_feedbacks(game.rules, game.pending_guess)}:
                raise MalformedButton()  # no reply has that many blacks: forged or too old
            await interaction.response.defer()  # an old challenge may need the solver
            state = await self.service.board(game)
            with speaking_for(interaction, game):
                view = challenge_board(state, black=black)
            await interaction.edit_original_response(view=view)
        elif action is Action.UNDO:
            last = self.service.check_take_back(game, parts[0])
            await interaction.response.defer()  # the solver may take a moment
            state = await self.service.commit_take_back(game, last, action_id=interaction.id)
            await self._show(interaction, state)
        else:
            turn, black, white = parts
            reply = self.service.check_reply(game, (black, white), turn=turn,
                                             action_id=interaction.id,
                                             player_id=interaction.user.id)
            await interaction.response.defer()
            state = await self.service.commit_reply(reply)
            await self._show(interaction, state)
            await after_move(interaction, state.game)

    async def reveal(self, interaction: discord.Interaction, game_id: int, text: str) -> None:
        """The challenger's code, from their picker: said back to them, then the finished
        board in the channel (the live one it replaces shrinks to its last reply)."""
        game = await self.service.load(game_id, interaction.user.id)
        reveal = self.service.check_reveal(game, typed_code(text), action_id=interaction.id)
        state = await self.service.commit_reveal(reveal)
        await close(interaction, revealed(state))  # to the challenger, in their language
        message = await self._post(interaction, state)
        await self.service.games.set_board_message(state.game.id, message.id)
        with speaking_for(interaction, game):
            line = collapsed_line(state, len(game.replies))
        collapse_soon(interaction, game.board_message_id, line, v2=True)
        await after_move(interaction, state.game)

    # ---- showing ----------------------------------------------------------------------------
    async def _show(self, interaction: discord.Interaction, state: ChallengeState) -> None:
        """Edit the board the button is on."""
        with speaking_for(interaction, state.game):
            view = challenge_board(state)
        await interaction.edit_original_response(view=view)

    async def _post(self, interaction: discord.Interaction, state: ChallengeState
                    ) -> discord.WebhookMessage:
        """Answer a deferred command with the board."""
        with speaking_for(interaction, state.game):
            view = challenge_board(state)
        return await interaction.followup.send(view=view, wait=True)


def speaking_for(interaction: discord.Interaction, game: GameRecord
                 ) -> AbstractContextManager[None]:
    """A channel's challenge board speaks the channel's language; a private one its player's
    (the language the interaction already speaks)."""
    return nullcontext() if game.private else publicly(interaction)

