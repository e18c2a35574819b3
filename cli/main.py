"""The ``mastermind`` command: argument parsing and wiring the games to the terminal."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from importlib import metadata
from typing import TextIO

from engine import (
    DEFAULT_STRATEGY,
    STRATEGIES,
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

from . import build_trees
from .analysis import print_analysis
from .crack import crack_game
from .match import match_game
from .play import play_game
from .puzzle import puzzle_for, solve_puzzle
from .render import Style, histogram
from .session import Read

PROG = "mastermind"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class UsageError(Exception):
    """Bad input on the command line: reported as ``mastermind: error: ...``, exit code 2."""


# ---- argument parsing ---------------------------------------------------------------------
def _strategy_help() -> str:
    width = max(map(len, STRATEGIES))
    lines = [f"  {s.name:<{width}}  {s.description}" for s in STRATEGIES.values()]
    return "strategies:\n" + "\n".join(lines)


def _strategy(words: str) -> argparse.ArgumentParser:
    """``--strategy``, described for the command that takes it."""
    strategy = argparse.ArgumentParser(add_help=False)
    strategy.add_argument("--strategy", choices=tuple(STRATEGIES), default=None,
                          metavar="NAME", help=words)
    return strategy


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--color", "--colour", dest="color", choices=("auto", "always", "never"),
        default="auto", help="colour the pegs: auto (on a terminal without NO_COLOR), "
        "always or never",
    )
    size = argparse.ArgumentParser(add_help=False)
    size.add_argument("--pegs", type=int, default=4, help="pegs per code, 2-8 (default 4)")
    size.add_argument(
        "--colors", "--colours", dest="colors", type=int, default=6,
        help="number of colours, 2-9 (default 6)",
    )
    size.add_argument(
        "--no-repeats", dest="repeats", action="store_false",
        help="every peg of a code has a different colour",
    )
    game = argparse.ArgumentParser(add_help=False)
    game.add_argument(
        "--max-guesses", type=int, default=10, help="guesses allowed, 1-20 (default 10)"
    )
    analysis = argparse.ArgumentParser(add_help=False)
    analysis.add_argument(
        "--analyse", "--analyze", dest="analyse", action="store_true",
        help="at the end, show how each guess compares with the solver's, and skill and luck "
        "scores",
    )

    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Mastermind in the terminal: break the computer's code, let it break "
        "yours, or measure its strategies.",
        epilog="Run 'mastermind COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    raw = argparse.RawDescriptionHelpFormatter

    play = commands.add_parser(
        "play", parents=[size, game, analysis, common], help="break the computer's secret code",
        description="Guess the computer's secret code. Type 'help' in the game for the "
        "input formats.",
    )
    play.add_argument(
        "--seed", type=int, default=None,
        help="draw the secret from this seed (for testing; default: truly random)",
    )

    crack = commands.add_parser(
        "crack", parents=[_strategy("how the computer guesses your code (default: the strongest "
                                    "for the size; see below)"), size, game, analysis, common],
        formatter_class=raw,
        help="think of a code and let the computer break it",
        description="Think of a code; the computer guesses and you reply with black and "
        "white pegs.",
        epilog=_strategy_help(),
    )
    crack.add_argument(
        "--seed", type=int, default=0, help="seed for the random and sampled strategies"
    )

    ev = commands.add_parser(
        "evaluate", parents=[_strategy(f"the strategy to measure (default: {DEFAULT_STRATEGY}; "
                                       f"see below)"), size, game, common],
        formatter_class=raw,
        help="play a strategy against every secret and show how many guesses it needs",
        description="Play a strategy against every possible secret and report the "
        "distribution of guesses.",
        epilog=_strategy_help(),
    )
    ev.add_argument("--seed", type=int, default=0, help="seed for sampled decisions")
    ev.add_argument("--json", action="store_true", help="print one JSON object")

    match = commands.add_parser(
        "match", parents=[_strategy("how the computer guesses your codes in its halves "
                                    "(default: the strongest for the size; see below)"),
                          size, game, common],
        formatter_class=raw,
        help="the 1978 game: rounds in which you break my code, then I break yours",
        description="Play rounds: in each one you break the computer's code, then it breaks "
        "yours. Each side scores the moves it needed; fewer moves wins.",
        epilog=_strategy_help(),
    )
    match.add_argument("--rounds", type=int, default=3, help="rounds to play, 1-10 (default 3)")
    match.add_argument(
        "--seed", type=int, default=None,
        help="draw the computer's codes from this seed (for testing; default: truly random)",
    )

    puzzle = commands.add_parser(
        "puzzle", parents=[size, common],
        help="a few guesses with their key pegs: name the one code that fits them all",
        description="Exactly one code fits every clue (a guess and its key pegs); name it "
        "in one try. Each puzzle is certified: one code fits, and no clue can be dropped.",
    )
    puzzle.add_argument("--level", choices=[level.value for level in Level],
                        default=Level.MEDIUM.value,
                        help="easy: all but one clue leave 2-3 codes; medium: 4-9; hard: 10 "
                        "or more (default medium)")
    puzzle.add_argument("--daily", action="store_true",
                        help="today's puzzle (UTC), the same for everyone at the same options")
    puzzle.add_argument("--seed", type=int, default=None,
                        help="generate from this seed (default: a new puzzle each time)")

    sc = commands.add_parser(
        "score", parents=[common], help="score a guess against a secret",
        description="Print the black and white pegs GUESS gets against SECRET "
        "(e.g. 'mastermind score 2532 3523').",
    )
    sc.add_argument("secret", help="the secret code, e.g. 2532 or OBYO")
    sc.add_argument("guess", help="the guess, e.g. 3523")
    build_trees.add_parser(commands)
    return parser


def _version() -> str:
    try:
        return metadata.version("mastermind-bot")
    except metadata.PackageNotFoundError:
        return "unknown"


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
        text = f"{self.label}: {done:,}/{total:,} codes ({100 * done / max(total, 1):.0f}%)"
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
    result = play_game(rules, secret, read=terminal_reader(stdin, stdout), out=stdout,
                       style=style)
    if args.analyse:
        print_analysis(rules, result.turns, result.secret, out=stdout, style=style)
    return 0


def cmd_match(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    rules = _rules(args)
    if not 1 <= args.rounds <= 10:
        raise UsageError(f"--rounds must be 1 to 10, not {args.rounds}")
    match_game(rules, args.rounds, args.strategy or strongest_strategy(rules), seed=args.seed,
               read=terminal_reader(stdin, stdout), out=stdout,
               style=Style.for_stream(stdout, args.color))
    return 0


def cmd_puzzle(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    rules = _rules(args)
    try:
        puzzle, title = puzzle_for(rules, Level(args.level), args.seed, args.daily)
    except PuzzleError as error:
        raise UsageError(f"{error}: try another level or a larger size") from None
    style = Style.for_stream(stdout, args.color)
    result = solve_puzzle(puzzle, read=terminal_reader(stdin, stdout), out=stdout, style=style,
                          title=title)
    return 0 if result.solved else 1


def cmd_crack(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    rules = _rules(args)
    style = Style.for_stream(stdout, args.color)
    result = crack_game(
        rules, args.strategy or strongest_strategy(rules), seed=args.seed,
        read=terminal_reader(stdin, stdout), out=stdout, style=style,
    )
    if args.analyse:
        secret = result.turns[-1].guess if result.outcome == "solved" else None
        print_analysis(rules, result.turns, secret, out=stdout, style=style, who="the computer")
    return 0


def cmd_score(args: argparse.Namespace, stdout: TextIO) -> int:
    codes = []
    for name, text in (("secret", args.secret), ("guess", args.guess)):
        try:
            codes.append(as_code(text))
        except InvalidCode as error:
            raise UsageError(f"{name} {text!r}: {error}") from None
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
    repeats = "repeats on" if rules.repeats else "no repeats"
    label = f"{rules.pegs} pegs · {rules.colors} colours · {repeats}"
    progress = Progress(stderr, f"evaluating {strategy} on {rules.size_label}")
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
    print(style.bold(f"{result.strategy} on {label}: {result.codes:,} codes"), file=stdout)
    for row in histogram(result.distribution, style):
        print(row, file=stdout)
    print(
        f"total {result.total:,} guesses · average {result.average:.4f} · "
        f"max {result.max} · {result.seconds:.2f} s",
        file=stdout,
    )
    if not result.exact:
        print(
            style.dim("(the space is large, so some decisions were made on samples; "
                      "--seed changes them)"),
            file=stdout,
        )
    return 0


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command line; returns the exit code (2 for bad arguments)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
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
        print(f"{PROG}: error: {error}", file=stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. piped into head): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
