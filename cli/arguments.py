"""The ``mastermind`` command's arguments: every command and option, with argparse's own
words (headings, ``usage:``, ``-h``) in the terminal's language."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import metadata
from typing import Any, NoReturn

from engine import DEFAULT_STRATEGY, STRATEGIES
from engine.puzzle import Level
from i18n import tr

from . import build_trees
from .words import is_wide, typed, wrap

PROG = "mastermind"


class _Words:
    """argparse's own words (``usage:``) in the terminal's language, and help texts in
    Chinese, Japanese or Korean wrapped by the columns they take (argparse counts
    characters and breaks only at spaces)."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        if not is_wide(text):
            return super()._split_lines(text, width)  # type: ignore[misc]
        return wrap(" ".join(text.split()), width)

    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None = None
                  ) -> None:
        # TRANSLATORS: the start of the usage line of --help and of errors; keep the space.
        super().add_usage(usage, actions, groups,  # type: ignore[misc]
                          tr("usage: ") if prefix is None else prefix)


class _Help(_Words, argparse.HelpFormatter):
    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if not is_wide(text):
            return super()._fill_text(text, width, indent)
        return "\n".join(indent + line for line in wrap(" ".join(text.split()),
                                                          width - len(indent)))


class _RawHelp(_Words, argparse.RawDescriptionHelpFormatter):
    pass


class Parser(argparse.ArgumentParser):
    """argparse speaking the terminal's language: its headings, ``-h`` and the error line.
    (The details of argparse's own errors, such as ``invalid choice``, stay English.)"""

    def __init__(self, *, add_help: bool = True, parents: Sequence[argparse.ArgumentParser] = (),
                 **kwargs: Any) -> None:
        if kwargs.get("formatter_class") is argparse.RawDescriptionHelpFormatter:
            kwargs["formatter_class"] = _RawHelp
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(add_help=False, **kwargs)
        # Renamed before the parents' options join, so theirs land under the same heading.
        self._positionals.title = tr("positional arguments")
        self._optionals.title = tr("options")
        if add_help:
            self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                              help=tr("show this help message and exit"))
        for parent in parents:  # as argparse.ArgumentParser does with its own parents
            self._add_container_actions(parent)
            self._defaults.update(parent._defaults)

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, tr("{prog}: error: {message}", prog=self.prog, message=message) + "\n")


def _strategy_help() -> str:
    width = max(map(len, STRATEGIES))
    lines = [f"  {s.name:<{width}}  {s.description}" for s in STRATEGIES.values()]
    return tr("strategies:") + "\n" + "\n".join(lines)


def _strategy(words: str) -> Parser:
    """``--strategy``, described for the command that takes it."""
    strategy = Parser(add_help=False)
    strategy.add_argument("--strategy", choices=tuple(STRATEGIES), default=None,
                          metavar="NAME", help=words)
    return strategy


def build_parser() -> argparse.ArgumentParser:
    common = Parser(add_help=False)
    common.add_argument(
        "--color", "--colour", dest="color", choices=("auto", "always", "never"),
        default="auto", help=tr("colour the pegs: auto (on a terminal without NO_COLOR), "
                                "always or never"),
    )
    size = Parser(add_help=False)
    size.add_argument("--pegs", type=int, default=4, help=tr("pegs per code, 2-8 (default 4)"))
    size.add_argument(
        "--colors", "--colours", dest="colors", type=int, default=6,
        help=tr("number of colours, 2-9 (default 6)"),
    )
    size.add_argument(
        "--no-repeats", dest="repeats", action="store_false",
        help=tr("every peg of a code has a different colour"),
    )
    game = Parser(add_help=False)
    game.add_argument(
        "--max-guesses", type=int, default=10, help=tr("guesses allowed, 1-20 (default 10)")
    )
    analysis = Parser(add_help=False)
    analysis.add_argument(
        "--analyse", "--analyze", dest="analyse", action="store_true",
        help=tr("at the end, show how each guess compares with the solver's, and skill and "
                "luck scores"),
    )

    parser = Parser(
        prog=PROG,
        description=tr("Mastermind in the terminal: break the computer's code, let it break "
                       "yours, or measure its strategies."),
        epilog=tr("Run 'mastermind COMMAND --help' for the options of a command."),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}",
                        help=tr("show the program's version number and exit"))
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title=tr("commands"))
    raw = argparse.RawDescriptionHelpFormatter

    play = commands.add_parser(
        "play", parents=[size, game, analysis, common],
        help=tr("break the computer's secret code"),
        description=tr("Guess the computer's secret code. Type '{help}' in the game for the "
                       "input formats.", help=typed("help")),
    )
    play.add_argument(
        "--seed", type=int, default=None,
        help=tr("draw the secret from this seed (for testing; default: truly random)"),
    )

    crack = commands.add_parser(
        "crack", parents=[_strategy(tr("how the computer guesses your code (default: the "
                                       "strongest for the size; see below)")),
                          size, game, analysis, common],
        formatter_class=raw,
        help=tr("think of a code and let the computer break it"),
        description=tr("Think of a code; the computer guesses and you reply with black and "
                       "white pegs."),
        epilog=_strategy_help(),
    )
    crack.add_argument(
        "--seed", type=int, default=0, help=tr("seed for the random and sampled strategies")
    )

    ev = commands.add_parser(
        "evaluate", parents=[_strategy(tr("the strategy to measure (default: {strategy}; see "
                                          "below)", strategy=DEFAULT_STRATEGY)),
                             size, game, common],
        formatter_class=raw,
        help=tr("play a strategy against every secret and show how many guesses it needs"),
        description=tr("Play a strategy against every possible secret and report the "
                       "distribution of guesses."),
        epilog=_strategy_help(),
    )
    ev.add_argument("--seed", type=int, default=0, help=tr("seed for sampled decisions"))
    ev.add_argument("--json", action="store_true", help=tr("print one JSON object"))

    match = commands.add_parser(
        "match", parents=[_strategy(tr("how the computer guesses your codes in its halves "
                                       "(default: the strongest for the size; see below)")),
                          size, game, common],
        formatter_class=raw,
        help=tr("the 1978 game: rounds in which you break my code, then I break yours"),
        description=tr("Play rounds: in each one you break the computer's code, then it "
                       "breaks yours. Each side scores the moves it needed; fewer moves wins."),
        epilog=_strategy_help(),
    )
    match.add_argument("--rounds", type=int, default=3,
                       help=tr("rounds to play, 1-10 (default 3)"))
    match.add_argument(
        "--seed", type=int, default=None,
        help=tr("draw the computer's codes from this seed (for testing; default: truly "
                "random)"),
    )

    puzzle = commands.add_parser(
        "puzzle", parents=[size, common],
        help=tr("a few guesses with their key pegs: name the one code that fits them all"),
        description=tr("Exactly one code fits every clue (a guess and its key pegs); name it "
                       "in one try. Each puzzle is certified: one code fits, and no clue can "
                       "be dropped."),
    )
    puzzle.add_argument("--level", choices=[level.value for level in Level],
                        default=Level.MEDIUM.value,
                        help=tr("easy: all but one clue leave 2-3 codes; medium: 4-9; hard: "
                                "10 or more (default medium)"))
    puzzle.add_argument("--daily", action="store_true",
                        help=tr("today's puzzle (UTC), the same for everyone at the same "
                                "options"))
    puzzle.add_argument("--seed", type=int, default=None,
                        help=tr("generate from this seed (default: a new puzzle each time)"))

    sc = commands.add_parser(
        "score", parents=[common], help=tr("score a guess against a secret"),
        description=tr("Print the black and white pegs GUESS gets against SECRET "
                       "(e.g. 'mastermind score 2532 3523')."),
    )
    sc.add_argument("secret", help=tr("the secret code, e.g. 2532 or OBYO"))
    sc.add_argument("guess", help=tr("the guess, e.g. 3523"))
    build_trees.add_parser(commands)
    return parser


def _version() -> str:
    try:
        return metadata.version("mastermind-bot")
    except metadata.PackageNotFoundError:
        return "unknown"
