"""``mastermind crack``: you think of a code and the computer breaks it."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from engine import (
    DEFAULT_STRATEGY,
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
        return _labelled_reply(s, text)
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


def _labelled_reply(s: str, text: str) -> tuple[int, int]:
    """``2b1w``, ``1w 2b``, ``2 blacks and 1 white``: each count named once."""
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
    strategy: str = DEFAULT_STRATEGY,
    *,
    seed: int = 0,
    read: Read,
    out: TextIO,
    style: Style | None = None,
    confirm_quit: Callable[[], bool] | None = None,
) -> CrackResult:
    """Run one game in which the computer guesses the player's code from their replies.
    ``confirm_quit`` asks before ``quit`` ends it (in a match, quitting forfeits)."""
    return _Crack(rules, strategy, seed=seed, read=read, out=out, style=style or Style(),
                  confirm_quit=confirm_quit).run()


class _Crack:
    """One ``crack`` game: the loop asks, each handler answers one kind of input."""

    def __init__(self, rules: Rules, strategy: str, *, seed: int, read: Read, out: TextIO,
                 style: Style, confirm_quit: Callable[[], bool] | None = None):
        self.rules, self.read, self.out, self.style = rules, read, out, style
        self.confirm_quit = confirm_quit
        self.session = SolverSession(rules, strategy, seed=seed)

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def result(self, outcome: str) -> CrackResult:
        return CrackResult(outcome, self.session.turns, self.session.remaining)

    def run(self) -> CrackResult:
        rules, style = self.rules, self.style
        self.say(style.bold("Mastermind: think of a code and I'll break it."))
        self.say(f"{rules.describe()} · strategy {self.session.strategy.name}")
        self.say(f"Colours: {style.palette(rules)}")
        self.say(f"Reply to each guess with black and white pegs: {REPLY_FORMS}.")
        self.say("Commands: undo, board, reveal, help, quit.")
        self.say()
        try:
            while True:
                ended = self.ended()
                if ended is not None:
                    return self.result(ended)
                text = ask(self.read, self.prompt(), self.out)
                word = " ".join(text.lower().split())
                if word and self.answer(word, text):
                    return self.result("revealed")
        except Quit:
            self.say("Bye! Your code stays a secret.")
            return self.result("quit")

    def ended(self) -> str | None:
        """The outcome when the game is over, saying so."""
        session, rules, style = self.session, self.rules, self.style
        if session.solved and not session.inconsistent:
            turns = len(session.turns)
            code = style.code(session.turns[-1].guess)
            in_turns = plural(turns, "guess", "guesses")
            self.say(style.good(f"I broke your code {code} in {in_turns}!"))
            return "solved"
        if not session.inconsistent and len(session.turns) >= rules.max_guesses:
            self.say(style.good("You win!") + f" I'm out of guesses after {rules.max_guesses}; "
                     f"{_still_fit(session.remaining)} your replies.")
            return "player-won"
        return None

    def prompt(self) -> str:
        if self.session.inconsistent:
            return "undo or reveal> "
        guess = self.session.next_guess()
        number = len(self.session.turns) + 1
        return f"Guess {number}/{self.rules.max_guesses}: {self.style.code(guess)}  reply> "

    def answer(self, word: str, text: str) -> bool:
        """Handle one line of input; True when the player revealed their code."""
        session = self.session
        if handle_common_word(
            word, quit_words=QUIT_WORDS, help_lines=help_text(self.rules, self.style),
            turns=session.turns, rules=self.rules, style=self.style, empty="No replies yet.",
            say=self.say, confirm_quit=self.confirm_quit,
        ):
            return False
        if word in UNDO_WORDS:
            self.undo()
        elif word in REVEAL_WORDS:
            return _reveal(session, read=self.read, out=self.out, style=self.style)
        elif session.inconsistent:
            self.say("Your replies contradict each other, so I can't guess.")
            self.say(UNDO_OR_REVEAL)
        else:
            self.reply(text)
        return False

    def undo(self) -> None:
        session = self.session
        if not session.turns:
            self.say("There is no reply to take back.")
            return
        number = len(session.turns)
        turn = session.take_back()
        self.say(f"Took back your reply to guess {number} "
                 f"({self.style.code(turn.guess)}: {turn.feedback}); "
                 f"{plural(session.remaining, 'code')} possible again.")

    def reply(self, text: str) -> None:
        session, style = self.session, self.style
        try:
            reply = parse_reply(text)
        except ValueError as error:
            self.say(f"{style.bad('Not a reply:')} {error}")
            return
        try:
            left = session.tell(reply)
        except InvalidFeedback as error:
            self.say(f"{style.bad('That reply is impossible:')} {error}")
            return
        except InconsistentFeedback:
            self.contradiction()
            return
        row = style.turn_row(len(session.turns), session.turns[-1], self.rules)
        if session.solved:
            self.say(row)
        elif left == 1:
            self.say(f"{row}  -> only one code fits: I know it!")
        else:
            self.say(f"{row}  -> {plural(left, 'code')} still possible")

    def contradiction(self) -> None:
        session, style = self.session, self.style
        last = session.turns[-1]
        self.say(style.turn_row(len(session.turns), last, self.rules))
        self.say(style.warn("Those replies contradict each other:")
                 + f" no code fits all {len(session.turns)}, so one of them is wrong.")
        self.say(UNDO_OR_REVEAL)
        if last.feedback.is_win(self.rules.pegs):
            self.say(f"If your code really is {style.code(last.guess)}, then:")
            for mistake in session.check_against(last.guess):
                self.say(f"  {mistake}")


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
