"""``mastermind play``: you break the computer's secret code."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from engine import Code, InvalidCode, Rules, Turn, example, parse_code, score_codes
from i18n import tr, trn

from .render import Style
from .session import Quit, Read, ask, handle_common_word
from .words import aligned, indented, typed


@dataclass(frozen=True)
class PlayResult:
    outcome: str  # "won", "lost" or "quit"
    secret: Code
    turns: tuple[Turn, ...]


def help_text(rules: Rules, style: Style) -> list[str]:
    ex = example(rules)
    letters = style.letters(parse_code(ex, rules))
    if rules.repeats:
        secret = tr("I picked a secret code of {pegs} pegs, each one of {colors} colours "
                    "(colours may repeat).", pegs=rules.pegs, colors=rules.colors)
    else:
        secret = tr("I picked a secret code of {pegs} pegs, each one of {colors} colours "
                    "(all different colours).", pegs=rules.pegs, colors=rules.colors)
    keys = aligned([
        tr("{peg} black = right colour in the right place", peg=style.black_key),
        tr("{peg} white = right colour in the wrong place", peg=style.white_key),
        tr("{peg} none = the other pegs: colours not (or no more) in the code",
           peg=style.no_key),
    ])
    return [
        style.bold(tr("How to play")),
        *indented(secret),
        # TRANSLATORS: keep the line break: the help is printed as two lines here.
        *indented(tr("Type a guess as digits ({example}), with spaces or dashes ({spaced}),\n"
                     "as colour letters ({letters}) or as colour emoji.",
                     example=ex, spaced=" ".join(ex), letters=letters)),
        *indented(tr("Colours: {palette}", palette=style.palette(rules))),
        *indented(tr("After each guess you get key pegs (they don't say which peg is which):")),
        *indented("\n".join(keys), "    "),
        *indented(trn("You have {count} guess. A typo (not a code of this game) or a code you "
                      "already tried\nuses none; any other code uses one, even a code the key "
                      "pegs so far rule out.",
                      "You have {count} guesses. A typo (not a code of this game) or a code you "
                      "already tried\nuses none; any other code uses one, even a code the key "
                      "pegs so far rule out.", rules.max_guesses)),
        *indented(tr("Commands: {board} (your guesses so far), {help}, {quit} (give up and see "
                     "the code).", board=typed("board"), help=typed("help"),
                     quit=typed("quit"))),
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

    say(style.bold(tr("Mastermind: break my code.")))
    say(f"{rules.describe()}")
    say(tr("Colours: {palette}", palette=style.palette(rules)))
    say(tr("Type a guess like {example}; or {help}, {board}, {quit}.", example=example(rules),
           help=typed("help"), board=typed("board"), quit=typed("quit")))
    say()
    try:
        while len(turns) < rules.max_guesses:
            text = ask(read, tr("Guess {number}/{total}> ", number=len(turns) + 1,
                                total=rules.max_guesses), out)
            word = " ".join(text.lower().split())
            if not word:
                continue
            if handle_common_word(
                word, help_lines=help_text(rules, style), turns=turns, rules=rules,
                style=style, empty=tr("No guesses yet."), say=say, confirm_quit=confirm_quit,
            ):
                continue
            try:
                guess = parse_code(text, rules)
            except InvalidCode as error:
                label = style.bad(tr("Not a code:"))
                say(tr("{not_a_code} {error} (no guess used)", not_a_code=label, error=error))
                continue
            earlier = next((n for n, t in enumerate(turns, 1) if t.guess == guess), None)
            if earlier is not None:
                say(tr("You already tried {code} (guess {number}: {reply}); no guess used.",
                       code=style.code(guess), number=earlier,
                       reply=turns[earlier - 1].feedback))
                continue
            turn = Turn(guess, score_codes(secret, guess))
            turns.append(turn)
            say(style.turn_row(len(turns), turn, rules))
            if turn.feedback.is_win(rules.pegs):
                say(style.good(trn("You broke the code in {count} guess!",
                                   "You broke the code in {count} guesses!", len(turns))))
                return PlayResult("won", secret, tuple(turns))
    except Quit:
        say(tr("You gave up. The code was {code}.", code=style.code(secret)))
        return PlayResult("quit", secret, tuple(turns))
    out_of_guesses = style.bad(tr("Out of guesses!"))
    say(tr("{out_of_guesses} The code was {code}.", out_of_guesses=out_of_guesses,
           code=style.code(secret)))
    return PlayResult("lost", secret, tuple(turns))
