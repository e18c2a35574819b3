"""The code-breaking game as a service: the bot holds a secret, people in a channel guess.

Each public method is one transaction: read the channel's game, check the move, write it,
commit. A player's mistake raises a :class:`~bot.errors.UserError` before anything is
written, so the stored game stays exactly as it was.
"""

from __future__ import annotations

import secrets as secure_random
from dataclasses import dataclass

import aiosqlite

from engine import Code, InvalidCode, Rules, example, format_code, parse_code, score_codes

from .clock import Clock, system_clock
from .errors import BadInput, GameAlreadyRunning, GameOver, NoGameRunning, NotAllowed
from .store import Database, GameRecord, GameStore, GuessRecord
from .store.stats import StatsStore

DEFAULT_IDLE_TIMEOUT = 24 * 3600.0
#: A guess this soon after someone won is answered "too late" rather than "no game".
LATE_GUESS_WINDOW = 600.0


def draw_secret(rules: Rules) -> Code:
    """A uniformly random code from the OS's secure source."""
    if rules.repeats:
        return tuple(1 + secure_random.randbelow(rules.colors) for _ in range(rules.pegs))
    return tuple(secure_random.SystemRandom().sample(range(1, rules.colors + 1), rules.pegs))


@dataclass
class NewGame:
    game: GameRecord
    #: The channel's previous game, if it had gone idle and was just ended as abandoned.
    abandoned: GameRecord | None


@dataclass
class GuessResult:
    game: GameRecord
    guess: GuessRecord

    @property
    def won(self) -> bool:
        return self.game.status == "won"

    @property
    def lost(self) -> bool:
        return self.game.status == "lost"


class BreakerService:
    def __init__(
        self,
        db: Database,
        *,
        clock: Clock = system_clock,
        idle_timeout: float = DEFAULT_IDLE_TIMEOUT,
        secret_source=draw_secret,
    ):
        self.db = db
        self.store = GameStore()
        self.stats = StatsStore()
        self.clock = clock
        self.idle_timeout = idle_timeout
        self.secret_source = secret_source

    # ---- helpers --------------------------------------------------------------------------
    async def end_game(
        self,
        conn: aiosqlite.Connection,
        game: GameRecord,
        *,
        status: str,
        now: float,
        winner_id: int | None = None,
        secret: Code | None = None,
    ) -> None:
        """End a game and count it for stats, in the caller's transaction."""
        await self.store.finish(conn, game, status=status, now=now, winner_id=winner_id,
                                secret=secret)
        await self.stats.record(conn, game)

    async def load_active(
        self, conn: aiosqlite.Connection, channel_id: int
    ) -> tuple[GameRecord | None, GameRecord | None]:
        """The channel's running game, ending it first as abandoned if it has gone idle.

        Returns ``(running game or None, game just abandoned or None)``.
        """
        game = await self.store.active_in_channel(conn, channel_id)
        now = self.clock()
        if game is not None and now - game.updated_at > self.idle_timeout:
            await self.end_game(conn, game, status="abandoned", now=now)
            return None, game
        return game, None

    def _no_game(self, abandoned: GameRecord | None) -> NoGameRunning:
        start = "Start one with `/mastermind new`."
        if abandoned is not None:
            return NoGameRunning(
                f"The last game here went {_hours(self.idle_timeout)} without a move and was "
                f"abandoned{_reveal(abandoned)}. {start}",
                title="No game is running here",
            )
        return NoGameRunning(f"No game is running in this channel. {start}",
                             title="No game is running here")

    # ---- commands -------------------------------------------------------------------------
    async def open_game(
        self,
        *,
        kind: str,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        user_name: str,
        rules: Rules,
        secret: Code | None = None,
        strategy: str | None = None,
        seed: int = 0,
    ) -> NewGame:
        """Start a game of either kind, unless one already runs in the channel."""
        now = self.clock()
        async with self.db.transaction() as conn:
            running, abandoned = await self.load_active(conn, channel_id)
            if running is None:
                game = await self.store.create(
                    conn, guild_id=guild_id, channel_id=channel_id, kind=kind, rules=rules,
                    secret=secret, started_by=user_id, now=now, strategy=strategy, seed=seed,
                )
                await self.store.remember_player(conn, user_id, user_name, now)
        if running is not None:
            raise already_running(running)
        return NewGame(game, abandoned)

    async def new_game(
        self, *, guild_id: int | None, channel_id: int, user_id: int, user_name: str,
        rules: Rules,
    ) -> NewGame:
        return await self.open_game(
            kind="breaker", guild_id=guild_id, channel_id=channel_id, user_id=user_id,
            user_name=user_name, rules=rules, secret=self.secret_source(rules),
        )

    async def guess(
        self, *, channel_id: int, user_id: int, user_name: str, text: str
    ) -> GuessResult:
        async with self.db.transaction() as conn:
            game, abandoned = await self.load_active(conn, channel_id)
            result = None
            if game is not None:
                result = await self._apply_guess(conn, game, user_id, user_name, text)
        if game is None:
            latest = abandoned or await self._latest_finished(channel_id)
            if (
                latest is not None
                and abandoned is None
                and latest.status == "won"
                and self.clock() - (latest.ended_at or 0) < LATE_GUESS_WINDOW
            ):
                raise GameOver(
                    f"Too late: <@{latest.winner_id}> already broke the code "
                    f"{format_code(latest.secret or ())} in {latest.turns_used} guesses. "
                    f"Start a new game with `/mastermind new`.",
                    title="This game is over",
                )
            raise self._no_game(abandoned)
        assert result is not None
        return result

    async def _apply_guess(
        self, conn: aiosqlite.Connection, game: GameRecord, user_id: int, user_name: str,
        text: str,
    ) -> GuessResult:
        if game.kind != "breaker":
            raise BadInput(
                "The bot is breaking someone's code in this channel right now, so there is no "
                "code to guess. Answer its guesses with the buttons or `/feedback`.",
                title="A challenge is running here",
            )
        code = read_code(text, game.rules, f"Example: `/guess {example(game.rules)}`.")
        assert game.secret is not None
        now = self.clock()
        feedback = score_codes(game.secret, code)
        record = await self.store.add_guess(
            conn, game, player_id=user_id, code=code, feedback=feedback, now=now
        )
        await self.store.remember_player(conn, user_id, user_name, now)
        if feedback.is_win(game.rules.pegs):
            await self.end_game(conn, game, status="won", winner_id=user_id, now=now)
        elif game.guesses_left == 0:
            await self.end_game(conn, game, status="lost", now=now)
        return GuessResult(game, record)

    async def _latest_finished(self, channel_id: int) -> GameRecord | None:
        # A read after our own commit: the read connection sees it, without the write lock.
        return await self.store.latest_in_channel(await self.db.reader(), channel_id)

    async def current(self, channel_id: int) -> GameRecord:
        """The running game of a channel (for ``/mastermind board``)."""
        async with self.db.transaction() as conn:
            game, abandoned = await self.load_active(conn, channel_id)
        if game is None:
            raise self._no_game(abandoned)
        return game

    async def quit(self, *, channel_id: int, user_id: int, can_manage: bool) -> GameRecord:
        async with self.db.transaction() as conn:
            game, abandoned = await self.load_active(conn, channel_id)
            allowed = game is not None and (game.started_by == user_id or can_manage)
            if allowed:
                await self.end_game(conn, game, status="quit", now=self.clock())
        if game is None:
            raise self._no_game(abandoned)
        if not allowed:
            raise NotAllowed(
                f"Only <@{game.started_by}>, who started this game, or someone with the Manage "
                f"Messages permission can end it. You can keep guessing with `/guess`!",
                title="You can't end this game",
            )
        return game

    async def set_board_message(self, game_id: int, message_id: int) -> None:
        async with self.db.transaction() as conn:
            await self.store.set_board_message(conn, game_id, message_id)


def read_code(text: str, rules: Rules, hint: str) -> Code:
    """Parse a player's code, or raise :class:`BadInput` with the engine's reason and a hint."""
    try:
        return parse_code(text, rules)
    except InvalidCode as exc:
        raise BadInput(
            f"{_capital(str(exc))}.\nThis game: {rules.describe()}. {hint}",
            title="That is not a valid code",
        ) from None


def already_running(game: GameRecord) -> GameAlreadyRunning:
    what = "A Mastermind game" if game.kind == "breaker" else "A `/challenge`"
    where = (
        f" (board: https://discord.com/channels/{game.guild_id or '@me'}/{game.channel_id}/"
        f"{game.board_message_id})"
        if game.board_message_id
        else ""
    )
    how = (
        "`/mastermind board` shows it, `/guess` plays it, `/mastermind quit` ends it"
        if game.kind == "breaker"
        else "answer its guesses, or end it with `/mastermind quit`"
    )
    return GameAlreadyRunning(
        f"{what} started by <@{game.started_by}> is already running in this channel, "
        f"{game.turns_used} guesses in{where}: {how}. One game per channel.",
        title="A game is already running here",
    )


def _reveal(game: GameRecord) -> str:
    return f" (the code was {format_code(game.secret)})" if game.secret else ""


def _hours(seconds: float) -> str:
    hours = seconds / 3600
    return f"{hours:g} hours" if hours != 1 else "1 hour"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
