"""Games as the client sees them (JSON-ready dicts): the moves with who made them, the rules,
how it stands, and the secret only once the game is over. Ids are strings (a snowflake does
not fit a JavaScript number)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import Code, Feedback, Rules, format_code

from ...core.enums import GameKind, GameStatus, PuzzleStatus
from ...core.records import DailyPlay, GameRecord, PuzzlePlay

View = dict[str, Any]

#: A stored status as the client names it.
STATUS = {GameStatus.ACTIVE: "running", GameStatus.WON: "won", GameStatus.LOST: "lost",
          GameStatus.QUIT: "quit", GameStatus.ABANDONED: "abandoned"}


def rules_view(rules: Rules) -> dict[str, Any]:
    return {"pegs": rules.pegs, "colors": rules.colors, "max_guesses": rules.max_guesses,
            "repeats": rules.repeats}


def person(user_id: int, names: Mapping[int, str]) -> dict[str, Any]:
    return {"id": str(user_id), "name": names.get(user_id)}


def move(code: Code, feedback: Feedback, by: int, names: Mapping[int, str]) -> dict[str, Any]:
    return {"code": format_code(code), "black": feedback.black, "white": feedback.white,
            "by": person(by, names)}


def none(mode: str, rules: Rules | None = None) -> View:
    """No game of this mode to show (yet)."""
    return {"mode": mode, "game_id": None, "status": "none", "turn": 0, "moves": [],
            "rules": rules_view(rules) if rules else None, "secret": None}


def busy(mode: str, game: GameRecord) -> View:
    """The channel holds a game the Activity does not play (a challenge, a match)."""
    return {**none(mode), "status": "busy", "kind": game.kind.value}


def breaker(mode: str, game: GameRecord, names: Mapping[int, str]) -> View:
    """A game people break: every guess with its key pegs and who made it."""
    over = not game.active and not game.secret_withheld  # a racer's: once the race is over
    return {"mode": mode, "game_id": str(game.id), "status": STATUS[game.status],
            "rules": rules_view(game.rules), "turn": len(game.guesses),
            "moves": [move(g.code, g.feedback, g.player_id, names) for g in game.guesses],
            "started_by": person(game.started_by, names),
            "winner": person(game.winner_id, names) if game.winner_id else None,
            "secret": format_code(game.secret) if over and game.secret else None}


def challenge(game: GameRecord, names: Mapping[int, str]) -> View:
    """The bot breaks the player's code: its guesses with the player's replies, the guess
    waiting for a reply, how many codes still fit."""
    return {"mode": "challenge", "game_id": str(game.id), "status": STATUS[game.status],
            "rules": rules_view(game.rules), "turn": len(game.replies),
            "moves": [move(r.guess, r.feedback, r.player_id, names) for r in game.replies],
            "started_by": person(game.started_by, names), "strategy": game.strategy,
            "bot_guess": format_code(game.pending_guess) if (
                game.active and game.pending_guess) else None,
            "codes_left": game.codes_left,
            "secret": format_code(game.secret) if game.secret and not game.active else None}


def daily(rules: Rules, day: str, play: DailyPlay | None, secret: Code,
          streak: tuple[int, int], names: Mapping[int, str]) -> View:
    """A player's play of the day's code; the code once they have finished."""
    guesses = play.guesses if play else ()
    status = "none" if play is None else (
        "running" if not play.finished else "won" if play.solved else "lost")
    return {"mode": "daily", "game_id": day, "status": status, "rules": rules_view(rules),
            "turn": len(guesses), "day": day,
            "moves": [move(g.code, g.feedback, g.player_id, names) for g in guesses],
            "secret": format_code(secret) if play is not None and play.finished else None,
            "streak": {"current": streak[0], "longest": streak[1]}}


PUZZLE_STATUS = {PuzzleStatus.OPEN: "running", PuzzleStatus.SOLVED: "won",
                 PuzzleStatus.MISSED: "lost"}


def puzzle(play: PuzzlePlay, streak: tuple[int, int]) -> View:
    """The clues, and once the one try is spent what was named and the answer."""
    answered = not play.open
    return {"mode": "puzzle", "game_id": str(play.id), "status": PUZZLE_STATUS[play.status],
            "rules": rules_view(play.rules), "turn": int(answered), "day": play.day,
            "level": play.level.value if hasattr(play.level, "value") else str(play.level),
            "clues": [{"code": format_code(c.guess), "black": c.feedback.black,
                       "white": c.feedback.white} for c in play.clues],
            "moves": [], "named": format_code(play.named) if play.named else None,
            "secret": format_code(play.answer) if answered else None,
            "streak": {"current": streak[0], "longest": streak[1]}}


def game(mode: str, record: GameRecord, names: Mapping[int, str]) -> View:
    return challenge(record, names) if record.kind is GameKind.CHALLENGE else breaker(
        mode, record, names)
