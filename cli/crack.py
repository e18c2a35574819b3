"""``mastermind crack``: you think of a code and the computer breaks it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TextIO

from engine import (
    PALETTE,
    Code,
    InconsistentFeedback,
    InvalidCode,
    InvalidFeedback,
    Rules,
    SolverSession,
    Turn,
    example,
    parse_code,
)

from .render import Style
from .session import Quit, Read, ask, handle_common_word, plural

QUIT_WORDS = frozenset({"quit", "q", "exit"})
UNDO_WORDS = frozenset({"undo", "u", "back", "take back"})
REVEAL_WORDS = frozenset({"reveal", "r", "show"})

UNDO_OR_REVEAL = "Type undo to take back the last reply, or reveal to show your code and see which."
REPLY_FORMS = "2 1, 21, 2,1 or 2b1w (black first, then white)"
_LABELLED = re.compile(r"(\d+)\s*(blacks?|b|whites?|w)(?![a-z])[\s,;/&+-]*|and\s*")
_NUMBERS = re.compile(r"[\s,;/:-]+")


@dataclass(frozen=True)
class CrackResult:
    outcome: str  # "solved" (the computer broke it), "player-won", "revealed" or "quit"
    turns: tuple[Turn, ...]
    remaining: int


def parse_reply(text: str) -> tuple[int, int]:
    """Read a black/white reply: ``2 1``, ``21``, ``2,1``, ``2b1w``, ``1w 2b``, ``2b``...

    Raises ValueError with a message for the player; whether the numbers can happen is
    the engine's job (:func:`engine.validate_feedback`).
    """
    s = text.strip().lower()
    if not s:
        raise ValueError(f"type the black and white pegs, like {REPLY_FORMS}")
    if re.search(r"[bw]", s):
        found: dict[str, int] = {}
        pos = 0
        for match in _LABELLED.finditer(s):
            if match.start() != pos:
                break
            pos = match.end()
            if match.group(1) is None:
                continue
            kind = match.group(2)[0]
            if kind in found:
                raise ValueError(f"{'black' if kind == 'b' else 'white'} is given twice")
            found[kind] = int(match.group(1))
        if pos == len(s) and found:
            return found.get("b", 0), found.get("w", 0)
        raise ValueError(f"can't read {text.strip()!r}: reply like {REPLY_FORMS}")
    parts = [p for p in _NUMBERS.split(s) if p]
    if all(p.isdigit() and p.isascii() for p in parts):
        if len(parts) == 2:
            return int(parts[0]), int(parts[1])
        if len(parts) == 1 and len(parts[0]) == 2:
            return int(parts[0][0]), int(parts[0][1])
        if len(parts) == 1 and len(parts[0]) == 1:
            raise ValueError(
                f"give both numbers, black then white: {parts[0]} 0 means {parts[0]} black "
                f"and no white"
            )
    raise ValueError(f"can't read {text.strip()!r}: reply like {REPLY_FORMS}")


def help_text(rules: Rules, style: Style) -> list[str]:
    letters = " ".join(c.letter for c in PALETTE[: rules.colors])
    repeats = "colours may repeat" if rules.repeats else "all pegs different colours"
    return [
        style.bold("How to answer"),
        f"  Think of a code of {rules.pegs} pegs using colours 1-{rules.colors} "
        f"({letters}; {repeats}), like {example(rules)}. Keep it to yourself.",
        f"  Colours: {style.palette(rules)}",
        "  For each of my guesses, reply with two numbers:",
        f"    {style.black_key} black = pegs of the right colour in the right place",
        f"    {style.white_key} white = other pegs of a right colour, but in the wrong place",
        f"  Type them as {REPLY_FORMS}.",
        "  Commands: undo (take back your last reply), board (the game so far),",
        "            reveal (tell me your code; I check your replies), help, quit.",
    ]


def crack_game(
    rules: Rules,
    strategy: str = "knuth",
    *,
    seed: int = 0,
    read: Read,
    out: TextIO,
    style: Style | None = None,
) -> CrackResult:
    """Run one game in which the computer guesses the player's code from their replies."""
    style = style or Style()
    session = SolverSession(rules, strategy, seed=seed)

    def say(text: str = "") -> None:
        print(text, file=out)

    def result(outcome: str) -> CrackResult:
        return CrackResult(outcome, session.turns, session.remaining)

    say(style.bold("Mastermind: think of a code and I'll break it."))
    say(f"{rules.describe()} · strategy {session.strategy.name}")
    say(f"Colours: {style.palette(rules)}")
    say(f"Reply to each guess with black and white pegs: {REPLY_FORMS}.")
    say("Commands: undo, board, reveal, help, quit.")
    say()
    try:
        while True:
            if session.solved and not session.inconsistent:
                turns = len(session.turns)
                code = style.code(session.turns[-1].guess)
                say(style.good(f"I broke your code {code} in {plural(turns, 'guess', 'guesses')}!"))
                return result("solved")
            stuck = session.inconsistent
            if not stuck and len(session.turns) >= rules.max_guesses:
                say(
                    style.good("You win!")
                    + f" I'm out of guesses after {rules.max_guesses}; "
                    f"{_still_fit(session.remaining)} your replies."
                )
                return result("player-won")
            if stuck:
                prompt = "undo or reveal> "
            else:
                guess = session.next_guess()
                number = len(session.turns) + 1
                prompt = f"Guess {number}/{rules.max_guesses}: {style.code(guess)}  reply> "
            text = ask(read, prompt, out)
            word = " ".join(text.lower().split())
            if not word:
                continue
            if handle_common_word(
                word, quit_words=QUIT_WORDS, help_lines=help_text(rules, style),
                turns=session.turns, rules=rules, style=style, empty="No replies yet.", say=say,
            ):
                continue
            if word in UNDO_WORDS:
                if not session.turns:
                    say("There is no reply to take back.")
                    continue
                number = len(session.turns)
                turn = session.take_back()
                say(
                    f"Took back your reply to guess {number} "
                    f"({style.code(turn.guess)}: {turn.feedback}); "
                    f"{plural(session.remaining, 'code')} possible again."
                )
                continue
            if word in REVEAL_WORDS:
                if _reveal(session, read=read, out=out, style=style):
                    return result("revealed")
                continue
            if stuck:
                say("Your replies contradict each other, so I can't guess.")
                say(UNDO_OR_REVEAL)
                continue
            try:
                reply = parse_reply(text)
            except ValueError as error:
                say(f"{style.bad('Not a reply:')} {error}")
                continue
            try:
                left = session.tell(reply)
            except InvalidFeedback as error:
                say(f"{style.bad('That reply is impossible:')} {error}")
                continue
            except InconsistentFeedback:
                last = session.turns[-1]
                say(style.turn_row(len(session.turns), last, rules))
                say(
                    style.warn("Those replies contradict each other:")
                    + f" no code fits all {len(session.turns)}, so one of them is wrong."
                )
                say(UNDO_OR_REVEAL)
                if last.feedback.is_win(rules.pegs):
                    say(f"If your code really is {style.code(last.guess)}, then:")
                    for mistake in session.check_against(last.guess):
                        say(f"  {mistake}")
                continue
            row = style.turn_row(len(session.turns), session.turns[-1], rules)
            if session.solved:
                say(row)
            elif left == 1:
                say(f"{row}  -> only one code fits: I know it!")
            else:
                say(f"{row}  -> {plural(left, 'code')} still possible")
    except Quit:
        say("Bye! Your code stays a secret.")
        return result("quit")


def _still_fit(count: int) -> str:
    return f"{plural(count, 'code')} still {'fits' if count == 1 else 'fit'}"


def _reveal(session: SolverSession, *, read: Read, out: TextIO, style: Style) -> bool:
    """Ask for the player's code and check every reply against it; False if they cancel."""
    rules = session.rules
    while True:
        try:
            text = ask(read, "Your code (empty to cancel)> ", out)
        except Quit:
            text = ""
        if not text:
            print("Not revealed; carry on.", file=out)
            return False
        try:
            code: Code = parse_code(text, rules)
        except InvalidCode as error:
            print(f"{style.bad('Not a code:')} {error}", file=out)
            continue
        break
    mistakes = session.check_against(code)
    shown = style.code(code)
    if mistakes:
        count = plural(len(mistakes), "reply was", "replies were")
        print(style.warn(f"Your code is {shown}; {count} wrong:"), file=out)
        for mistake in mistakes:
            print(f"  {mistake}", file=out)
    elif not session.turns:
        print(f"Your code is {shown}. You gave no replies, so none were wrong.", file=out)
    else:
        print(
            f"Your code is {shown}, and all your replies were right "
            f"({_still_fit(session.remaining)} them).",
            file=out,
        )
    return True
