"""``mastermind build-trees``: compute the optimal decision trees shipped in engine/data/trees.

Each tree is the safest of the optimal ones (:mod:`engine.safest`: fewest guesses in total,
then the fewest in the worst case, then the fewest games needing that many), checked by
replaying it over every code, and written with its header (see :mod:`engine.trees`). With
``--books`` it builds the lookahead strategy's opening books instead (engine/data/books).
"""

from __future__ import annotations

import argparse
import functools
import os
import time
from pathlib import Path
from typing import TextIO

from engine import MastermindError, Rules
from engine.lookahead import book_for, book_name, parse_book
from engine.openings import BOOK_PLANS, BookBuilder, book_json
from engine.safest import SafestSolver
from engine.trees import to_json, tree_name
from i18n import tr

#: Every size built by default: (pegs, colours, repeats, guess limit or None).
DEFAULT_SIZES: tuple[tuple[int, int, bool, int | None], ...] = (
    *((p, c, True, None) for p in (2, 3, 4) for c in range(2, 7)),
    *((p, c, False, None) for p in (2, 3, 4) for c in range(max(p, 2), 7)),
    (4, 6, True, 5),
    # Beyond 4x6, the sizes that still build in seconds.
    (5, 2, True, None), (5, 3, True, None), (6, 2, True, None), (6, 3, True, None),
    (7, 2, True, None), (8, 2, True, None), (5, 5, False, None), (5, 6, False, None),
    (4, 7, True, None),  # about 8 minutes of CPU
)
DATA = Path(__file__).resolve().parent.parent / "engine" / "data" / "trees"
BOOKS = DATA.parent / "books"


def parse_size(text: str) -> tuple[int, int, bool, int | None]:
    """``4x6``, ``4x6-norep``, ``4x6-max5`` -> (pegs, colours, repeats, limit)."""
    size, *flags = text.split("-")
    try:
        pegs, colors = (int(x) for x in size.split("x"))
        limit = next((int(f[3:]) for f in flags if f.startswith("max")), None)
    except ValueError:
        raise argparse.ArgumentTypeError(tr(
            "{size}: write a size as PEGSxCOLOURS, e.g. 4x6, 4x6-norep or 4x6-max5",
            size=repr(text))) from None
    repeats = "norep" not in flags
    try:
        Rules(pegs, colors, repeats=repeats)
    except MastermindError as error:
        raise argparse.ArgumentTypeError(f"{text!r}: {error}") from None  # the engine's words
    return pegs, colors, repeats, limit


def build(
    sizes: list[tuple[int, int, bool, int | None]], out_dir: Path, out: TextIO
) -> int:
    out_dir.mkdir(parents=True, exist_ok=True)
    for pegs, colors, repeats, limit in sizes:
        rules = Rules(pegs, colors, repeats=repeats)
        started = time.process_time()
        solver = SafestSolver(rules, limit)
        guesses = solver.tree()
        seconds = time.process_time() - started
        text = to_json(rules, limit, guesses, seconds)
        name = tree_name(rules, limit)
        (out_dir / f"{name}.json").write_text(text, encoding="utf-8")
        total = solver.value()
        worst, at_worst = solver.shape()
        print(tr("{name}: total {total} over {codes} codes ({average}), at most {worst} "
                 "guesses ({at_worst} codes), {nodes} nodes, {seconds} s CPU", name=name,
                 total=total, codes=rules.code_count,
                 average=f"{total / rules.code_count:.4f}", worst=worst, at_worst=at_worst,
                 nodes=len(guesses), seconds=f"{seconds:.1f}"), file=out, flush=True)
    return 0


def build_books(
    sizes: list[tuple[int, int, bool, int | None]],
    out_dir: Path,
    out: TextIO,
    previous_dir: Path | None = None,
) -> int:
    """The lookahead strategy's opening books (engine/data/books; :mod:`engine.openings`),
    each built from the book it replaces: the shipped one, or the one of the same name in
    ``previous_dir`` (none there: built from no book), so a book's inputs can be named."""
    out_dir.mkdir(parents=True, exist_ok=True)
    wanted = {(pegs, colors) for pegs, colors, _, _ in sizes}
    for plan in BOOK_PLANS:
        if wanted and (plan.pegs, plan.colors) not in wanted:
            continue
        started = _cpu_seconds()
        progress = functools.partial(print, file=out, flush=True)
        moves = BookBuilder(plan, progress, previous=_previous(plan.rules, previous_dir),
                            processes=os.cpu_count() or 1).build()
        seconds = _cpu_seconds() - started
        name = book_name(plan.rules)
        (out_dir / f"{name}.json").write_text(book_json(plan, moves, seconds), encoding="utf-8")
        print(tr("{name} book: {moves} moves, {depth} deep, {seconds} s CPU",
                 name=name, moves=len(moves), depth=len(plan.candidates),
                 seconds=f"{seconds:.1f}"), file=out, flush=True)
    return 0


def _previous(rules: Rules, folder: Path | None) -> dict[bytes, int]:
    if folder is None:
        return book_for(rules)
    path = folder / f"{book_name(rules)}.json"
    return parse_book(rules, path.read_text("utf-8")) if path.is_file() else {}


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished workers."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "build-trees", help=tr("compute the optimal decision trees shipped with the engine"),
        description=tr("Compute the optimal decision trees (fewest guesses in total, then the "
                       "fewest in the worst case) and write them to engine/data/trees. Without "
                       "sizes, every shipped size is rebuilt (about 9 minutes of CPU, 8 of "
                       "them for 4x7)."),
    )
    parser.add_argument(
        "sizes", nargs="*", type=parse_size, metavar="SIZE",
        help=tr("sizes such as 4x6, 4x6-norep or 4x6-max5 (default: every shipped size)"),
    )
    parser.add_argument("--out", type=Path, default=None,
                        help=tr("folder for the files (default: the package's own)"))
    parser.add_argument("--books", action="store_true",
                        help=tr("build the lookahead opening books (5x8, 6x9) instead of "
                                "trees"))
    parser.add_argument("--previous", type=Path, default=None, metavar="FOLDER",
                        help=tr("with --books: build each book from the one of the same name "
                                "in this folder (an empty folder: from no book) instead of "
                                "the shipped one"))


def run(args: argparse.Namespace, out: TextIO) -> int:
    if args.books:
        return build_books(list(args.sizes), args.out or BOOKS, out, args.previous)
    return build(list(args.sizes) or list(DEFAULT_SIZES), args.out or DATA, out)


if __name__ == "__main__":
    import sys

    root = argparse.ArgumentParser(prog="python -m cli.build_trees")
    add_parser(root.add_subparsers(dest="command", required=True))
    sys.exit(run(root.parse_args(["build-trees", *sys.argv[1:]]), sys.stdout))
