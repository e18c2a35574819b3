"""Records every strategy's guesses on seeded secrets, to check that bounding the engine's
memory changes no move (tests/test_engine_decisions.py compares against the file).

    .venv/bin/python tests/record_decisions.py > tests/data/decisions.json

The file was written by the engine as it was before its temporaries were bounded; rerun
only when a move is meant to change.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import STRATEGIES, Rules, SolverSession, score_codes
from engine.codes import format_code

#: (pegs, colours, repeats, secrets, moves recorded per game (0: the whole game)).
PLAN = (
    (4, 6, True, 3, 0),
    (5, 8, True, 2, 0),
    (5, 7, False, 2, 0),
    (6, 7, True, 2, 0),
    (6, 9, True, 1, 3),
    (7, 8, True, 2, 0),
    (8, 9, True, 1, 3),
)


def play(rules: Rules, strategy: str, secret: tuple[int, ...], moves: int) -> list[str]:
    session = SolverSession(rules, strategy, seed=7)
    guesses = []
    while not moves or len(guesses) < moves:
        guess = session.next_guess()
        guesses.append(format_code(guess))
        reply = score_codes(secret, guess)
        if reply.is_win(rules.pegs) or len(guesses) >= rules.max_guesses:
            break
        session.tell(reply)
    return guesses


def record() -> list[dict[str, object]]:
    rng = random.Random(2024)
    games = []
    for pegs, colors, repeats, count, moves in PLAN:
        rules = Rules(pegs, colors, 12, repeats=repeats)
        for _ in range(count):
            palette = range(1, colors + 1)
            secret = (tuple(rng.choice(palette) for _ in range(pegs)) if repeats
                      else tuple(rng.sample(palette, pegs)))
            for strategy in STRATEGIES:
                games.append({
                    "pegs": pegs, "colors": colors, "repeats": repeats,
                    "secret": format_code(secret), "strategy": strategy, "moves": moves,
                    "guesses": play(rules, strategy, secret, moves),
                })
                print(games[-1], file=sys.stderr)
    return games


if __name__ == "__main__":
    print(json.dumps(record(), indent=0))
