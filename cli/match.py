"""``mastermind match``: the 1978 game of rounds. In each round you break the computer's
code, then it breaks yours; each side scores the moves it needed (the guess limit + 1 for
a code it failed to break), and after the last round the fewer moves wins."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from engine import Rules, draw_secret
from i18n import tr, trn

from .crack import crack_game
from .play import play_game
from .render import Style
from .session import Read, ask
from .words import means, typed


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
    """Play ``rounds`` rounds; ``seed`` makes the computer's codes reproducible. The score
    is shown once both halves of a round are played; quitting asks first, as it forfeits."""
    style = style or Style()
    halves: list[int] = []

    def say(text: str = "") -> None:
        print(text, file=out)

    def result(outcome: str) -> MatchResult:
        return MatchResult(outcome, sum(halves[0::2]), sum(halves[1::2]), tuple(halves))

    confirm_quit = _asker(halves, read, out, style)
    say(style.bold(trn("A match of {count} round: in each one you break my code, then I break "
                       "yours.",
                       "A match of {count} rounds: in each one you break my code, then I break "
                       "yours.", rounds)))
    say(tr("You score the moves you needed, I score mine; a code not broken scores {moves}.",
           moves=rules.max_guesses + 1))
    for round_ in range(1, rounds + 1):
        for half in (_your_half, _my_half):
            say()
            moves = half(rules, round_, rounds, strategy, seed, read, out, style,
                         confirm_quit)
            if moves is None:
                say(style.bad(tr("You quit, so you forfeit the match.")))
                say(tr("Final score: {standing}.", standing=standing(halves)))
                return result("quit")
            halves.append(moves)
            if half is _your_half:
                say(trn("You scored {count} move this round; now my half.",
                        "You scored {count} moves this round; now my half.", moves))
        say(tr("Score after round {round}: you {you}, me {me} (fewer moves wins)",
               round=round_, you=sum(halves[0::2]), me=sum(halves[1::2])))
    final = result("draw")
    outcome, line = _verdict(final, style)
    say()
    say(line)
    return result(outcome)


def _verdict(final: MatchResult, style: Style) -> tuple[str, str]:
    if final.you < final.computer:
        return "you", style.good(trn("You win the match, {count} move to {other}!",
                                     "You win the match, {count} moves to {other}!",
                                     final.you, other=final.computer))
    if final.you > final.computer:
        return "computer", trn("I win the match, {count} move to {other}.",
                               "I win the match, {count} moves to {other}.",
                               final.computer, other=final.you)
    return "draw", trn("A draw: you and I both needed {count} move.",
                       "A draw: you and I both needed {count} moves.", final.you)


def _asker(halves: list[int], read: Read, out: TextIO, style: Style
           ) -> Callable[[], bool]:
    """Asks before ``quit`` ends a match, saying the score it would end on."""
    def confirm_quit() -> bool:
        print(style.warn(tr("Quitting forfeits the match ({standing}).",
                            standing=standing(halves))), file=out)
        answer = ask(read, tr("Forfeit the match? ({yes}/{no})> ", yes=typed("yes"),
                              no=typed("no")), out)  # end of input: yes
        if means(answer, "yes"):
            return True
        print(tr("Not quitting: carry on."), file=out)
        return False

    return confirm_quit


def standing(halves: list[int]) -> str:
    """The score over the rounds both sides played, and a half-played round's first half."""
    full = len(halves) // 2
    if full:
        done = trn("you {you}, me {me} after {count} round",
                   "you {you}, me {me} after {count} rounds", full,
                   you=sum(halves[0:2 * full:2]), me=sum(halves[1:2 * full:2]))
    else:
        done = tr("no round finished yet")
    if len(halves) % 2:
        done += tr("; this round, you {you}, me not played yet", you=halves[-1])
    return done


def _your_half(rules: Rules, round_: int, rounds: int, strategy: str, seed: int | None,
               read: Read, out: TextIO, style: Style,
               confirm_quit: Callable[[], bool]) -> int | None:
    """You break the computer's code: your moves, or None when you quit."""
    print(style.bold(tr("Round {round} of {rounds}, first half: break my code.", round=round_,
                        rounds=rounds)), file=out)
    secret = draw_secret(rules, None if seed is None else seed + round_)
    played = play_game(rules, secret, read=read, out=out, style=style,
                       confirm_quit=confirm_quit)
    if played.outcome == "quit":
        return None
    return len(played.turns) if played.outcome == "won" else rules.max_guesses + 1


def _my_half(rules: Rules, round_: int, rounds: int, strategy: str, seed: int | None,
             read: Read, out: TextIO, style: Style,
             confirm_quit: Callable[[], bool]) -> int | None:
    """The computer breaks your code (a reveal starts it over): its moves, or None."""
    print(style.bold(tr("Round {round} of {rounds}, second half: now I break your code.",
                        round=round_, rounds=rounds)), file=out)
    while True:
        cracked = crack_game(rules, strategy, seed=seed or 0, read=read, out=out, style=style,
                             confirm_quit=confirm_quit)
        if cracked.outcome != "revealed":
            break
        print(style.warn(tr("You gave me inconsistent information. Try again, and this time "
                            "please be more careful: think of a code, and I start this "
                            "half-round over.")), file=out)
    if cracked.outcome == "quit":
        return None
    return len(cracked.turns) if cracked.outcome == "solved" else rules.max_guesses + 1
