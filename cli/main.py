"""The ``mastermind`` command: wiring the games to the terminal, in its language."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TextIO

from engine import (
    DEFAULT_STRATEGY,
    InvalidCode,
    MastermindError,
    Rules,
    as_code,
    draw_secret,
    evaluate,
    score,
    strongest_strategy,
)
from engine.puzzle import Level, PuzzleError
from i18n import from_environment, speaking, tr
from i18n.numbers import number

from . import build_trees
from .analysis import print_analysis
from .arguments import PROG, build_parser
from .crack import crack_game
from .match import match_game
from .play import play_game
from .puzzle import puzzle_for, solve_puzzle
from .render import Style, histogram
from .screen import fitted
from .session import Read

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class UsageError(Exception):
    """Bad input on the command line: reported as ``mastermind: error: ...``, exit code 2."""


def _rules(args: argparse.Namespace) -> Rules:
    try:
        return Rules(
            pegs=args.pegs,
            colors=args.colors,
            max_guesses=getattr(args, "max_guesses", 10),
            repeats=args.repeats,
        )
    except MastermindError as error:
        raise UsageError(str(error)) from None


# ---- the terminal -------------------------------------------------------------------------
def terminal_reader(stdin: TextIO, stdout: TextIO) -> Read:
    """``input`` with line editing on a terminal; echoes piped input so transcripts read well."""
    interactive = stdin.isatty()
    readline_on = False
    if interactive:
        try:
            import readline  # noqa: F401  (line editing and history for input())

            readline_on = True
        except ImportError:
            pass

    def read(prompt: str) -> str:
        if readline_on:
            # Tell readline the colour codes take no room, or it miscounts the prompt width.
            prompt = _ANSI.sub(lambda m: f"\001{m.group()}\002", prompt)
        if stdin is sys.stdin and stdout is sys.stdout:
            line = input(prompt)
        else:
            stdout.write(prompt)
            stdout.flush()
            raw = stdin.readline()
            if not raw:
                raise EOFError
            line = raw.rstrip("\r\n")
        if not interactive:
            stdout.write(line + "\n")
        return line

    return read


class Progress:
    """Progress of a long evaluation on stderr: one updating line on a terminal, otherwise
    an occasional line. Quiet for the first ``delay`` seconds so quick runs print nothing."""

    def __init__(
        self,
        stream: TextIO,
        label: str,
        *,
        delay: float = 0.5,
        interval: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.stream = stream
        self.label = label
        try:
            self.tty = stream.isatty()
        except (AttributeError, ValueError):
            self.tty = False
        self.interval = interval if interval is not None else (0.1 if self.tty else 5.0)
        self.clock = clock
        self.started = clock()
        self.delay = delay
        self.last: float | None = None

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if now - self.started < self.delay:
            return
        if self.last is not None and now - self.last < self.interval:
            return
        self.last = now
        text = tr("{label}: {done}/{total} codes ({percent}%)", label=self.label,
                  done=number(done), total=number(total),
                  percent=number(100 * done / max(total, 1), 0))
        if self.tty:
            self.stream.write(f"\r{text}\x1b[K")
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def finish(self) -> None:
        if self.tty and self.last is not None:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


# ---- commands -----------------------------------------------------------------------------
def cmd_play(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    rules = _rules(args)
    style = Style.for_stream(stdout, args.color)
    secret = draw_secret(rules, args.seed)
    out = fitted(stdout)
    result = play_game(rules, secret, read=terminal_reader(stdin, stdout), out=out,
                       style=style)
    if args.analyse:
        print_analysis(rules, result.turns, result.secret, out=out, style=style)
    return 0


def cmd_match(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    rules = _rules(args)
    if not 1 <= args.rounds <= 10:
        raise UsageError(tr("--rounds must be 1 to 10, not {rounds}", rounds=args.rounds))
    match_game(rules, args.rounds, args.strategy or strongest_strategy(rules), seed=args.seed,
               read=terminal_reader(stdin, stdout), out=fitted(stdout),
               style=Style.for_stream(stdout, args.color))
    return 0


def cmd_puzzle(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    rules = _rules(args)
    try:
        puzzle, title = puzzle_for(rules, Level(args.level), args.seed, args.daily)
    except PuzzleError as error:
        raise UsageError(tr("{error}: try another level or a larger size", error=error)
                         ) from None
    style = Style.for_stream(stdout, args.color)
    result = solve_puzzle(puzzle, read=terminal_reader(stdin, stdout), out=fitted(stdout),
                          style=style, title=title)
    return 0 if result.solved else 1


def cmd_crack(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    rules = _rules(args)
    style = Style.for_stream(stdout, args.color)
    out = fitted(stdout)
    result = crack_game(
        rules, args.strategy or strongest_strategy(rules), seed=args.seed,
        read=terminal_reader(stdin, stdout), out=out, style=style,
    )
    if args.analyse:
        secret = result.turns[-1].guess if result.outcome == "solved" else None
        print_analysis(rules, result.turns, secret, out=out, style=style, who="the computer")
    return 0


def cmd_score(args: argparse.Namespace, stdout: TextIO) -> int:
    codes = []
    for name, text in (("secret", args.secret), ("guess", args.guess)):
        try:
            codes.append(as_code(text))
        except InvalidCode as error:
            if name == "secret":
                message = tr("secret {code}: {error}", code=repr(text), error=error)
            else:
                message = tr("guess {code}: {error}", code=repr(text), error=error)
            raise UsageError(message) from None
    try:
        feedback = score(*codes)
    except InvalidCode as error:
        raise UsageError(str(error)) from None
    style = Style.for_stream(stdout, args.color)
    secret, guess = (style.code(c) for c in codes)
    print(f"{secret} {guess} -> {feedback}", file=stdout)
    return 0


def cmd_evaluate(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    rules = _rules(args)
    strategy = args.strategy or DEFAULT_STRATEGY
    if rules.repeats:
        label = tr("{pegs} pegs · {colors} colours · repeats on", pegs=rules.pegs,
                   colors=rules.colors)
    else:
        label = tr("{pegs} pegs · {colors} colours · no repeats", pegs=rules.pegs,
                   colors=rules.colors)
    progress = Progress(stderr, tr("evaluating {strategy} on {size}", strategy=strategy,
                                   size=rules.size_label))
    try:
        result = evaluate(rules, strategy, seed=args.seed, progress=progress)
    except ValueError as error:
        raise UsageError(str(error)) from None
    finally:
        progress.finish()
    if args.json:
        print(json.dumps(result.as_dict()), file=stdout)
        return 0
    style = Style.for_stream(stdout, args.color)
    print(style.bold(tr("{strategy} on {size}: {codes} codes", strategy=result.strategy,
                        size=label, codes=number(result.codes))), file=stdout)
    for row in histogram(result.distribution, style):
        print(row, file=stdout)
    print(tr("total {total} guesses · average {average} · max {max} · {seconds} s",
             total=number(result.total), average=number(result.average, 4), max=result.max,
             seconds=number(result.seconds, 2)), file=stdout)
    if not result.exact:
        print(style.dim(tr("(the space is large, so some decisions were made on samples; "
                           "--seed changes them)")), file=stdout)
    return 0


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    env: Mapping[str, str] | None = None,
) -> int:
    """Run the command line in the language ``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG``
    ask for (``env``: the process's environment); returns the exit code (2 for bad
    arguments)."""
    with speaking(from_environment(os.environ if env is None else env)):
        return _run(argv, stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr)


def _run(argv: Sequence[str] | None, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version and argparse's usage errors
        return exit_.code if isinstance(exit_.code, int) else 2
    try:
        interactive = {"play": cmd_play, "crack": cmd_crack, "match": cmd_match,
                       "puzzle": cmd_puzzle}
        if args.command in interactive:
            return interactive[args.command](args, stdin, stdout)
        if args.command == "evaluate":
            return cmd_evaluate(args, stdout, stderr)
        printing = {"score": cmd_score, "build-trees": build_trees.run}
        if args.command in printing:
            return printing[args.command](args, stdout)
        parser.print_help(stdout)
        return 2
    except UsageError as error:
        print(tr("{prog}: error: {message}", prog=PROG, message=error), file=stderr)
        return 2
    except KeyboardInterrupt:
        print("\n" + tr("interrupted"), file=stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. piped into head): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
