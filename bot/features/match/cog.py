"""``/match``, its buttons and the codes people set, and the scoreboard after each
half-round.

A half-round is played on its own board (``/guess`` for a breaker game, the reply buttons
for a challenge); after each move the breaker and challenge cogs call :func:`after_move`,
and when the move ended a half-round's game, :meth:`MatchCog.after_half` shows the score
and the next half-round.
"""

from __future__ import annotations

import contextlib

import discord
from discord import app_commands
from discord.ext import commands

from engine import Rules
from i18n import mark, tr

from ...core.codes import read_code
from ...core.enums import GameKind, GameStatus
from ...core.matches import DEFAULT_ROUNDS, MAX_ROUNDS, MIN_ROUNDS
from ...core.records import GameRecord
from ...ui.boards import collapse_soon
from ...ui.buttons import cog_of
from ...ui.followups import moved
from ...ui.options import (
    NO_RULE_OPTIONS,
    STRATEGY_CHOICES,
    RuleOptions,
    chosen_strategy,
    display_name,
    with_rule_options,
)
from ...ui.pegs import typed_code
from ...ui.places import bot_in_channel, require_shared_answers, usable
from ...ui.translation import publicly
from ..breaker.buttons import board_view
from ..breaker.render import board_embed
from ..breaker.service import BreakerService
from ..challenge.render import challenge_board, collapsed_line
from ..challenge.service import ChallengeService, ChallengeState
from ..picker.flow import close, show
from ..picker.purposes import register
from ..settings.cog import rules_for
from .buttons import MatchAction, MatchButton
from .errors import BadOpponent
from .picking import (
    MatchCodePurpose,
    SetterGamePurpose,
    code_set,
    match_picker,
    setter_picker,
)
from .render import (
    expired_note,
    half_note,
    replay_note,
    scoreboard_embed,
    scoreboard_view,
    setter_note,
)
from .service import MatchService, MatchView


class MatchCog(commands.Cog, name="match"):
    def __init__(self, bot: commands.Bot, service: MatchService, breaker: BreakerService,
                 challenges: ChallengeService):
        self.bot = bot
        self.service = service
        self.breaker = breaker
        self.challenges = challenges

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(MatchButton)
        register(SetterGamePurpose())
        register(MatchCodePurpose())

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(MatchButton)

    # ---- /match -----------------------------------------------------------------------------
    @app_commands.command(name="match", description="A match of rounds: break my code, then "
                                                    "I break yours (or play someone)")
    @app_commands.describe(
        opponent="Play this person instead of me (they accept with a button)",
        rounds=f"Rounds to play ({MIN_ROUNDS}-{MAX_ROUNDS}, default {DEFAULT_ROUNDS})",
        strategy="How I pick my guesses (default: the strongest for the size)",
    )
    @app_commands.choices(strategy=STRATEGY_CHOICES)
    @usable(dms=False)
    @with_rule_options
    async def match(
        self,
        interaction: discord.Interaction,
        opponent: discord.User | None = None,
        rounds: app_commands.Range[int, MIN_ROUNDS, MAX_ROUNDS] = DEFAULT_ROUNDS,
        asked: RuleOptions = NO_RULE_OPTIONS,
        strategy: str | None = None,
    ) -> None:
        assert interaction.channel_id is not None  # not in the bot's DM (see usable)
        require_shared_answers(interaction, tr("a match in the channel"))
        rules = rules_for(interaction, asked)  # the server's default rules for the rest
        strategy = chosen_strategy(strategy, rules)
        if opponent is not None and opponent.bot:
            raise BadOpponent(mark("Bots don't play matches (I am the exception)."))
        view = await self.service.start(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            user_id=interaction.user.id, user_name=display_name(interaction.user), rules=rules,
            rounds=rounds, strategy=strategy, opponent=opponent.id if opponent else None,
            action_id=interaction.id)
        with publicly(interaction):
            note = expired_note(view.expired.id) if view.expired is not None else None
            embeds = [scoreboard_embed(view, note=note)]
            if view.expired is not None:
                embeds.append(scoreboard_embed(MatchView(view.expired)))
            buttons = scoreboard_view(view)
            first = (None if view.game is None
                     else (board_embed(view.game, note=half_note(view)), board_view(view.game)))
        sent = await interaction.response.send_message(
            embeds=embeds, view=buttons or discord.utils.MISSING)
        if sent.message_id is not None:
            await self.service.set_board_message(view.match.id, sent.message_id)
        if view.game is not None and first is not None:  # the first half-round's board
            board = await interaction.followup.send(
                embed=first[0], view=first[1] or discord.utils.MISSING, wait=True)
            await self.breaker.games.set_board_message(view.game.id, board.id)

    # ---- what the /mastermind group asks of a match -----------------------------------------
    async def running(self, channel_id: int) -> MatchView | None:
        return await self.service.in_channel(channel_id)

    async def show_board(self, interaction: discord.Interaction, view: MatchView) -> None:
        """``/mastermind board`` while a match runs: the scoreboard, and the half's board."""
        await interaction.response.defer(thinking=True)
        await self._post(interaction, view)

    async def quit(self, interaction: discord.Interaction) -> bool:
        """``/mastermind quit`` while a match runs; False when none does."""
        assert interaction.channel_id is not None
        if await self.service.in_channel(interaction.channel_id) is None:
            return False  # checked on the read connection: no write when no match runs
        permissions = interaction.permissions
        view = await self.service.quit(
            channel_id=interaction.channel_id, user_id=interaction.user.id,
            can_manage=bool(permissions and permissions.manage_messages),
            action_id=interaction.id)
        if view is None:
            return False
        with publicly(interaction):
            embeds = [scoreboard_embed(view)]
            if view.game is not None and view.game.kind is GameKind.BREAKER:
                embeds.append(board_embed(view.game))
            finished = (challenge_board(ChallengeState(view.game))
                        if view.game is not None and view.game.kind is GameKind.CHALLENGE
                        else None)
        await interaction.response.send_message(embeds=embeds)
        await _strip_buttons(interaction, view.match.board_message_id)
        if view.game is not None and finished is not None:
            # a V2 board can't lose all its components: it becomes the finished board
            collapse_soon(interaction, view.game.board_message_id, view=finished)
        elif view.game is not None:
            await _strip_buttons(interaction, view.game.board_message_id)
        return True

    async def ask_setter_code(self, interaction: discord.Interaction, rules: Rules) -> None:
        """``/mastermind new setter:me``: the code is picked where only the setter sees it."""
        assert interaction.channel_id is not None
        self.breaker.games.channel_allowed(interaction.guild_id, interaction.channel_id)
        await self.breaker.games.check_free(interaction.channel_id)
        await show(interaction, setter_picker(interaction.user.id, rules))

    # ---- buttons and codes --------------------------------------------------------------------
    async def on_button(self, interaction: discord.Interaction, action: MatchAction,
                        match_id: int, half: int | None) -> None:
        if action is MatchAction.CODE:  # a picker only the setter sees
            assert half is not None
            match = await self.service.check_setter(match_id, half, interaction.user.id)
            await show(interaction, match_picker(interaction.user.id, match.id, half,
                                                 match.rules))
            return
        await self.service.check_invitation(match_id, interaction.user.id)
        view = await self.service.answer(
            match_id, user_id=interaction.user.id, user_name=display_name(interaction.user),
            accept=action is MatchAction.ACCEPT, action_id=interaction.id)
        with publicly(interaction):
            embed, buttons = scoreboard_embed(view), scoreboard_view(view)
        await interaction.response.edit_message(embed=embed, view=buttons)

    async def set_code(self, interaction: discord.Interaction, match_id: int, half: int,
                       text: str) -> None:
        """A half-round's code, from its setter's picker: said back to them alone, then the
        scoreboard and the new board in the channel."""
        view = await self.service.set_code(match_id, half, user_id=interaction.user.id,
                                           text=typed_code(text), action_id=interaction.id)
        assert view.game is not None and view.game.secret is not None
        await close(interaction, code_set(view.game.secret))
        await self._post(interaction, view)
        await _strip_buttons(interaction, view.match.board_message_id, keep=None)

    async def start_setter_game(self, interaction: discord.Interaction, rules: Rules,
                                text: str) -> None:
        """``/mastermind new setter:me``, its code picked: the game starts in the channel."""
        assert interaction.channel_id is not None
        code = read_code(typed_code(text), rules)
        started = await self.breaker.new_game(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            user_id=interaction.user.id, user_name=display_name(interaction.user), rules=rules,
            action_id=interaction.id, secret=code)
        await close(interaction, code_set(code))  # to the setter, in their language
        with publicly(interaction):
            embed = board_embed(started.game, note=setter_note(interaction.user.id))
            buttons = board_view(started.game)
        board = await interaction.followup.send(
            embed=embed, view=buttons or discord.utils.MISSING, wait=True)
        await self.breaker.games.set_board_message(started.game.id, board.id)

    # ---- after a half-round ----------------------------------------------------------------
    async def after_half(self, interaction: discord.Interaction, ended: GameRecord) -> None:
        """A half-round's game ended: show the score, then the next half-round's board."""
        assert ended.match_id is not None
        view = await self.service.view(ended.match_id)
        if view is None:
            return
        replayed = (ended.status is GameStatus.QUIT and view.game is not None
                    and view.game.id != ended.id and view.match.running)
        await self._post(interaction, view, replayed=replayed)

    async def _post(self, interaction: discord.Interaction, view: MatchView, *,
                    replayed: bool = False) -> None:
        """The scoreboard, then (while it runs) the current half-round's board, as followups
        of an answered or deferred interaction, in the channel's language; each is
        remembered as the one to link. ``replayed``: a reveal started the half over."""
        with publicly(interaction):
            embed = scoreboard_embed(view, note=replay_note() if replayed else None)
            buttons = scoreboard_view(view)
        scoreboard = await interaction.followup.send(
            embed=embed, view=buttons or discord.utils.MISSING, wait=True)
        await self.service.set_board_message(view.match.id, scoreboard.id)
        game = view.game
        if game is None or not game.active or not view.match.running:
            return
        if game.kind is GameKind.CHALLENGE:
            state = await self.challenges.board(game)
            with publicly(interaction):
                challenge = challenge_board(state, note=half_note(view))
                line = collapsed_line(state, len(game.replies))
            board = await interaction.followup.send(view=challenge, wait=True)
        else:
            with publicly(interaction):
                embed, buttons = board_embed(game, note=half_note(view)), board_view(game)
            board = await interaction.followup.send(
                embed=embed, view=buttons or discord.utils.MISSING, wait=True)
        await self.breaker.games.set_board_message(game.id, board.id)
        if game.kind is GameKind.CHALLENGE and game.board_message_id != board.id:
            # a V2 board can't lose all its components: it shrinks to its last reply
            collapse_soon(interaction, game.board_message_id, line, v2=True)
        else:
            await _strip_buttons(interaction, game.board_message_id, keep=board.id)


async def _strip_buttons(interaction: discord.Interaction, message_id: int | None,
                         keep: int | None = None) -> None:
    """An older board's buttons belong to an older state: take them off (best effort)."""
    channel = interaction.channel
    if not message_id or message_id == keep or channel is None or not bot_in_channel(
            interaction):
        return
    partial = getattr(channel, "get_partial_message", None)
    if partial is None:
        return
    with contextlib.suppress(discord.HTTPException):
        await partial(message_id).edit(view=None)


async def after_move(interaction: discord.Interaction, game: GameRecord) -> None:
    """Every move is told to its listeners (:func:`~bot.ui.followups.moved`); once a match's
    half-round game ends (and its board was shown), the match feature shows the score and
    the next half-round."""
    moved(interaction, game)
    if not game.active and game.match_id is not None:
        await cog_of(interaction, MatchCog).after_half(interaction, game)
