"""``mastermind play``: you break the computer's secret code."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from engine import Code, InvalidCode, Rules, Turn, example, parse_code, score_codes

from .render import Style
from .session import Quit, Read, ask, handle_common_word, plural

QUIT_WORDS = frozenset({"quit", "q", "exit", "give up", "giveup"})


@dataclass(frozen=True)
class PlayResult:
    outcome: str  # "won", "lost" or "quit"
    secret: Code
    turns: tuple[Turn, ...]


def help_text(rules: Rules, style: Style) -> list[str]:
    repeats = "colours may repeat" if rules.repeats else "all different colours"
    ex = example(rules)
    letters = style.letters(parse_code(ex, rules))
    spaced = " ".join(ex)
    return [
        style.bold("How to play"),
        f"  I picked a secret code of {rules.pegs} pegs, each one of {rules.colors} colours "
        f"({repeats}).",
        f"  Type a guess as digits ({ex}), with spaces or dashes ({spaced}),",
        f"  as colour letters ({letters}) or as colour emoji.",
        f"  Colours: {style.palette(rules)}",
        "  After each guess you get key pegs (they don't say which peg is which):",
        f"    {style.black_key} black = right colour in the right place",
        f"    {style.white_key} white = right colour in the wrong place",
        f"    {style.no_key} none  = the other pegs: colours not (or no more) in the code",
        f"  You have {plural(rules.max_guesses, 'guess', 'guesses')}. A typo (not a code of "
        "this game) or a code you already tried",
        "  uses none; any other code uses one, even a code the key pegs so far rule out.",
        "  Commands: board (your guesses so far), help, quit (give up and see the code).",
    ]


def play_game(
    rules: Rules,
    secret: Code,
    *,
    read: Read,
    out: TextIO,
    style: Style | None = None,
    confirm_quit: Callable[[], bool] | None = None,
) -> PlayResult:
    """Run one game in which the player guesses ``secret``; returns how it ended.
    ``confirm_quit`` asks before ``quit`` ends it (in a match, quitting forfeits)."""
    style = style or Style()
    secret = parse_code(secret, rules)
    turns: list[Turn] = []

    def say(text: str = "") -> None:
        print(text, file=out)

    say(style.bold("Mastermind: break my code."))
    say(f"{rules.describe()}")
    say(f"Colours: {style.palette(rules)}")
    say(f"Type a guess like {example(rules)}; or help, board, quit.")
    say()
    try:
        while len(turns) < rules.max_guesses:
            text = ask(read, f"Guess {len(turns) + 1}/{rules.max_guesses}> ", out)
            word = " ".join(text.lower().split())
            if not word:
                continue
            if handle_common_word(
                word, quit_words=QUIT_WORDS, help_lines=help_text(rules, style), turns=turns,
                rules=rules, style=style, empty="No guesses yet.", say=say,
                confirm_quit=confirm_quit,
            ):
                continue
            try:
                guess = parse_code(text, rules)
            except InvalidCode as error:
                say(f"{style.bad('Not a code:')} {error} (no guess used)")
                continue
            earlier = next((n for n, t in enumerate(turns, 1) if t.guess == guess), None)
            if earlier is not None:
                say(
                    f"You already tried {style.code(guess)} (guess {earlier}: "
                    f"{turns[earlier - 1].feedback}); no guess used."
                )
                continue
            turn = Turn(guess, score_codes(secret, guess))
            turns.append(turn)
            say(style.turn_row(len(turns), turn, rules))
            if turn.feedback.is_win(rules.pegs):
                say(
                    style.good(
                        f"You broke the code in {plural(len(turns), 'guess', 'guesses')}!"
                    )
                )
                return PlayResult("won", secret, tuple(turns))
    except Quit:
        say(f"You gave up. The code was {style.code(secret)}.")
        return PlayResult("quit", secret, tuple(turns))
    say(style.bad("Out of guesses!") + f" The code was {style.code(secret)}.")
    return PlayResult("lost", secret, tuple(turns))
