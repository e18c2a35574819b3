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
from i18n import tr, trn
from i18n.numbers import number

from .render import Style
from .session import Quit, Read, ask, handle_common_word
from .words import aligned, columns, indented, means, typed

_LABELLED = re.compile(r"(\d+)\s*(blacks?|b|whites?|w)(?![a-z])[\s,;/&+-]*|and\s*")
_NUMBERS = re.compile(r"[\s,;/:-]+")


def undo_or_reveal() -> str:
    return tr("Type {undo} to take back the last reply, or {reveal} to show your code and see "
              "which.", undo=typed("undo"), reveal=typed("reveal"))


def reply_forms() -> str:
    """How a reply is typed: the letters b and w stay, like the colour letters of a code."""
    # TRANSLATORS: b and w are typed as they are in every language (b = black, w = white).
    return tr("2 1, 21, 2,1 or 2b1w (black first, then white)")


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
        raise ValueError(tr("type the black and white pegs, like {forms}", forms=reply_forms()))
    if re.search(r"[bw]", s):
        return _labelled_reply(s, text)
    parts = [p for p in _NUMBERS.split(s) if p]
    if all(p.isdigit() and p.isascii() for p in parts):
        if len(parts) == 2:
            return int(parts[0]), int(parts[1])
        if len(parts) == 1 and len(parts[0]) == 2:
            return int(parts[0][0]), int(parts[0][1])
        if len(parts) == 1 and len(parts[0]) == 1:
            raise ValueError(tr("give both numbers, black then white: {number} 0 means "
                                "{number} black and no white", number=parts[0]))
    raise ValueError(tr("can't read {text}: reply like {forms}", text=repr(text.strip()),
                        forms=reply_forms()))


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
            raise ValueError(tr("black is given twice") if kind == "b"
                             else tr("white is given twice"))
        found[kind] = int(match.group(1))
    if pos == len(s) and found:
        return found.get("b", 0), found.get("w", 0)
    raise ValueError(tr("can't read {text}: reply like {forms}", text=repr(text.strip()),
                        forms=reply_forms()))


def help_text(rules: Rules, style: Style) -> list[str]:
    letters = " ".join(c.letter for c in PALETTE[: rules.colors])
    if rules.repeats:
        think = tr("Think of a code of {pegs} pegs using colours 1-{colors} ({letters}; colours "
                   "may repeat), like {example}. Keep it to yourself.", pegs=rules.pegs,
                   colors=rules.colors, letters=letters, example=example(rules))
    else:
        think = tr("Think of a code of {pegs} pegs using colours 1-{colors} ({letters}; all "
                   "pegs different colours), like {example}. Keep it to yourself.",
                   pegs=rules.pegs, colors=rules.colors, letters=letters,
                   example=example(rules))
    keys = aligned([
        tr("{peg} black = pegs of the right colour in the right place", peg=style.black_key),
        tr("{peg} white = other pegs of a right colour, but in the wrong place",
           peg=style.white_key),
    ])
    return [
        style.bold(tr("How to answer")),
        *indented(think),
        *indented(tr("Colours: {palette}", palette=style.palette(rules))),
        *indented(tr("For each of my guesses, reply with two numbers:")),
        *indented("\n".join(keys), "    "),
        *indented(tr("Type them as {forms}.", forms=reply_forms())),
        # TRANSLATORS: keep the line break; the second line is indented under the first's
        # words by the terminal.
        *_hanging(tr("Commands: {undo} (take back your last reply), {board} (the game so far),"
                     "\n{reveal} (tell me your code; I check your replies), {help}, {quit}.",
                     undo=typed("undo"), board=typed("board"), reveal=typed("reveal"),
                     help=typed("help"), quit=typed("quit"))),
    ]


def _hanging(text: str) -> list[str]:
    """``Commands: a, b,`` with the next lines under the first's words, not its label."""
    first, *rest = text.split("\n")
    label = re.match(r"[^:：]{1,20}[:：]\s*", first)
    under = " " * columns(label.group()) if label else ""
    return ["  " + first, *("  " + under + line for line in rest)]


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
        self.say(style.bold(tr("Mastermind: think of a code and I'll break it.")))
        self.say(tr("{rules} · strategy {strategy}", rules=rules.describe(),
                    strategy=self.session.strategy.name))
        self.say(tr("Colours: {palette}", palette=style.palette(rules)))
        self.say(tr("Reply to each guess with black and white pegs: {forms}.",
                    forms=reply_forms()))
        self.say(tr("Commands: {undo}, {board}, {reveal}, {help}, {quit}.",
                    undo=typed("undo"), board=typed("board"), reveal=typed("reveal"),
                    help=typed("help"), quit=typed("quit")))
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
            self.say(tr("Bye! Your code stays a secret."))
            return self.result("quit")

    def ended(self) -> str | None:
        """The outcome when the game is over, saying so."""
        session, rules, style = self.session, self.rules, self.style
        if session.solved and not session.inconsistent:
            code = style.code(session.turns[-1].guess)
            self.say(style.good(trn("I broke your code {code} in {count} guess!",
                                    "I broke your code {code} in {count} guesses!",
                                    len(session.turns), code=code)))
            return "solved"
        if not session.inconsistent and len(session.turns) >= rules.max_guesses:
            left = session.remaining
            self.say(style.good(tr("You win!")) + " " + trn(
                "I'm out of guesses after {limit}; {number} code still fits your replies.",
                "I'm out of guesses after {limit}; {number} codes still fit your replies.",
                left, limit=rules.max_guesses, number=number(left)))
            return "player-won"
        return None

    def prompt(self) -> str:
        if self.session.inconsistent:
            return tr("{undo} or {reveal}> ", undo=typed("undo"), reveal=typed("reveal"))
        guess = self.session.next_guess()
        return tr("Guess {number}/{total}: {code}  reply> ", number=len(self.session.turns) + 1,
                  total=self.rules.max_guesses, code=self.style.code(guess))

    def answer(self, word: str, text: str) -> bool:
        """Handle one line of input; True when the player revealed their code."""
        session = self.session
        if handle_common_word(
            word, help_lines=help_text(self.rules, self.style), turns=session.turns,
            rules=self.rules, style=self.style, empty=tr("No replies yet."), say=self.say,
            confirm_quit=self.confirm_quit,
        ):
            return False
        if means(word, "undo"):
            self.undo()
        elif means(word, "reveal"):
            return _reveal(session, read=self.read, out=self.out, style=self.style)
        elif session.inconsistent:
            self.say(tr("Your replies contradict each other, so I can't guess."))
            self.say(undo_or_reveal())
        else:
            self.reply(text)
        return False

    def undo(self) -> None:
        session = self.session
        if not session.turns:
            self.say(tr("There is no reply to take back."))
            return
        taken = len(session.turns)
        turn = session.take_back()
        left = session.remaining
        self.say(trn("Took back your reply to guess {guess} ({code}: {reply}); {number} code "
                     "possible again.",
                     "Took back your reply to guess {guess} ({code}: {reply}); {number} codes "
                     "possible again.", left, guess=taken, code=self.style.code(turn.guess),
                     reply=turn.feedback, number=number(left)))

    def reply(self, text: str) -> None:
        session, style = self.session, self.style
        try:
            reply = parse_reply(text)
        except ValueError as error:
            self.say(style.bad(tr("Not a reply:")) + f" {error}")
            return
        try:
            left = session.tell(reply)
        except InvalidFeedback as error:
            self.say(style.bad(tr("That reply is impossible:")) + f" {error}")
            return
        except InconsistentFeedback:
            self.contradiction()
            return
        row = style.turn_row(len(session.turns), session.turns[-1], self.rules)
        if session.solved:
            self.say(row)
        elif left == 1:
            self.say(tr("{row}  -> only one code fits: I know it!", row=row))
        else:
            self.say(trn("{row}  -> {number} code still possible",
                         "{row}  -> {number} codes still possible", left, row=row,
                         number=number(left)))

    def contradiction(self) -> None:
        session, style = self.session, self.style
        last = session.turns[-1]
        self.say(style.turn_row(len(session.turns), last, self.rules))
        self.say(style.warn(tr("Those replies contradict each other:")) + " " + trn(
            "no code fits that one, so it is wrong.",
            "no code fits all {count}, so one of them is wrong.", len(session.turns)))
        self.say(undo_or_reveal())
        if last.feedback.is_win(self.rules.pegs):
            self.say(tr("If your code really is {code}, then:", code=style.code(last.guess)))
            for mistake in session.check_against(last.guess):
                self.say(f"  {mistake}")


def _reveal(session: SolverSession, *, read: Read, out: TextIO, style: Style) -> bool:
    """Ask for the player's code and check every reply against it; False if they cancel."""
    rules = session.rules
    while True:
        try:
            text = ask(read, tr("Your code (empty to cancel)> "), out)
        except Quit:
            text = ""
        if not text:
            print(tr("Not revealed; carry on."), file=out)
            return False
        try:
            code: Code = parse_code(text, rules)
        except InvalidCode as error:
            print(style.bad(tr("Not a code:")) + f" {error}", file=out)
            continue
        break
    mistakes = session.check_against(code)
    shown = style.code(code)
    if mistakes:
        print(style.warn(trn("Your code is {code}; {count} reply was wrong:",
                             "Your code is {code}; {count} replies were wrong:", len(mistakes),
                             code=shown)), file=out)
        for mistake in mistakes:
            print(f"  {mistake}", file=out)
    elif not session.turns:
        print(tr("Your code is {code}. You gave no replies, so none were wrong.", code=shown),
              file=out)
    else:
        left = session.remaining
        print(trn("Your code is {code}, and all your replies were right ({number} code still "
                  "fits them).",
                  "Your code is {code}, and all your replies were right ({number} codes still "
                  "fit them).", left, code=shown, number=number(left)), file=out)
    return True
