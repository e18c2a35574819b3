"""``mastermind match``: the 1978 game of rounds. In each round you break the computer's
code, then it breaks yours; each side scores the moves it needed (the guess limit + 1 for
a code it failed to break), and after the last round the fewer moves wins."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TextIO

from engine import Rules, draw_secret

from .crack import crack_game
from .play import play_game
from .render import Style
from .session import Read, plural

TRY_AGAIN = ("You gave me inconsistent information. Try again, and this time please be more "
             "careful: think of a code, and I start this half-round over.")


@dataclass(frozen=True)
class MatchResult:
    outcome: str  # "you", "computer", "draw" or "quit"
    you: int
    computer: int
    #: Moves per finished half-round, yours and the computer's in turn.
    halves: tuple[int, ...]


def match_game(
    rules: Rules,
    rounds: int,
    strategy: str,
    *,
    seed: int | None = None,
    read: Read,
    out: TextIO,
    style: Style | None = None,
) -> MatchResult:
    """Play ``rounds`` rounds; ``seed`` makes the computer's codes reproducible."""
    style = style or Style()
    halves: list[int] = []

    def say(text: str = "") -> None:
        print(text, file=out)

    def result(outcome: str) -> MatchResult:
        return MatchResult(outcome, sum(halves[0::2]), sum(halves[1::2]), tuple(halves))

    say(style.bold(f"A match of {plural(rounds, 'round')}: in each one you break my code, "
                   f"then I break yours."))
    say(f"You score the moves you needed, I score mine; a code not broken scores "
        f"{rules.max_guesses + 1}.")
    for round_ in range(1, rounds + 1):
        for half in (_your_half, _my_half):
            say()
            moves = half(rules, round_, rounds, strategy, seed, read, out, style)
            if moves is None:
                say(style.bad("You quit, so you forfeit the match."))
                return result("quit")
            halves.append(moves)
            say(f"Score: you {sum(halves[0::2])}, me {sum(halves[1::2])} (fewer moves wins)")
    final = result("draw")
    say()
    if final.you < final.computer:
        say(style.good(f"You win the match, {final.you} moves to {final.computer}!"))
        return result("you")
    if final.you > final.computer:
        say(f"I win the match, {final.computer} moves to {final.you}.")
        return result("computer")
    say(f"A draw: {final.you} moves each.")
    return final


def _your_half(rules: Rules, round_: int, rounds: int, strategy: str, seed: int | None,
               read: Read, out: TextIO, style: Style) -> int | None:
    """You break the computer's code: your moves, or None when you quit."""
    print(style.bold(f"Round {round_} of {rounds}, first half: break my code."), file=out)
    secret = draw_secret(rules, None if seed is None else seed + round_)
    played = play_game(rules, secret, read=read, out=out, style=style)
    if played.outcome == "quit":
        return None
    return len(played.turns) if played.outcome == "won" else rules.max_guesses + 1


def _my_half(rules: Rules, round_: int, rounds: int, strategy: str, seed: int | None,
             read: Read, out: TextIO, style: Style) -> int | None:
    """The computer breaks your code (a reveal starts it over): its moves, or None."""
    print(style.bold(f"Round {round_} of {rounds}, second half: now I break your code."),
          file=out)
    while True:
        cracked = crack_game(rules, strategy, seed=seed or 0, read=read, out=out, style=style)
        if cracked.outcome != "revealed":
            break
        print(style.warn(TRY_AGAIN), file=out)
    if cracked.outcome == "quit":
        return None
    return len(cracked.turns) if cracked.outcome == "solved" else rules.max_guesses + 1
