"""The post-game analysis, checked number by number against the engine's plain pieces:
every code scored with ``score_codes``, the solver's guess from a restored SolverSession."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest

from engine import Rules, SolverSession, score_codes
from engine.analysis import analyse, bot_game, verdict

CLASSIC = Rules()
ALL = list(itertools.product(range(1, 7), repeat=4))


def fits(code, turns) -> bool:
    return all(score_codes(code, g) == fb for g, fb in turns)


def left_after(guess, possible) -> Counter:
    """Codes left per reply (a win leaves none), counted by brute force."""
    return Counter(score_codes(code, guess) for code in possible)


def worst_and_average(guess, possible) -> tuple[int, float]:
    sizes = left_after(guess, possible)
    left = {fb: (0 if fb.black == 4 else n) for fb, n in sizes.items()}
    return max(left.values()), sum(left[fb] * n for fb, n in sizes.items()) / len(possible)


# A game a person might play: 1122, then 1234, 3456, 2532 ... for the secret 2532.
SECRET = (2, 5, 3, 2)
GUESSES = [(1, 1, 2, 2), (1, 2, 3, 4), (3, 4, 5, 6), (2, 5, 3, 2)]


def test_known_game_number_by_number():
    turns = [(g, score_codes(SECRET, g)) for g in GUESSES]
    result = analyse(CLASSIC, turns, secret=SECRET)
    assert len(result.moves) == 4 and result.solved
    skills, lucks = [], []
    for n, move in enumerate(result.moves):
        earlier = turns[:n]
        possible = [c for c in ALL if fits(c, earlier)]
        assert move.before == len(possible)
        assert move.after == len([c for c in possible if fits(c, turns[: n + 1])])
        assert move.was_possible == (move.guess in possible)
        solver = SolverSession.restore(CLASSIC, "knuth", earlier)
        assert move.solver_guess == solver.next_guess()
        worst, average = worst_and_average(move.guess, possible)
        assert (move.worst, move.average) == (worst, pytest.approx(average))
        s_worst, s_average = worst_and_average(move.solver_guess, possible)
        assert (move.solver_worst, move.solver_average) == (s_worst, pytest.approx(s_average))
        best = min(average, s_average)
        top = math.log((len(possible) + 1) / (best + 1))
        skill = 1.0 if top <= 0 else math.log((len(possible) + 1) / (average + 1)) / top
        assert move.skill == pytest.approx(max(0.0, min(1.0, skill)))
        skills.append(move.skill)
        sizes = left_after(move.guess, possible)
        left = {fb: (0 if fb.black == 4 else n) for fb, n in sizes.items()}
        mine = left.get(move.feedback, 0)
        luck = (sum(n for fb, n in sizes.items() if left[fb] > mine)
                + 0.5 * sum(n for fb, n in sizes.items() if left[fb] == mine)) / len(possible)
        assert move.luck == pytest.approx(luck)
        lucks.append(luck)
    assert result.skill == round(100 * sum(skills) / len(skills))
    assert result.luck == round(100 * sum(lucks) / len(lucks))
    # The figures of this game, as the engine's plain pieces give them.
    assert [m.before for m in result.moves] == [1296, 208, 44, 20]
    assert result.you_path == (208, 44, 20, 1)
    assert result.moves[0].verdict == "best possible"
    assert result.moves[-1].verdict == "found it: a 1 in 20 shot"


def test_the_bot_line_is_the_solvers_own_game():
    session = SolverSession(CLASSIC, "knuth")
    path = []
    while not session.solved:
        path.append(session.tell(score_codes(SECRET, session.next_guess())))
    assert bot_game(CLASSIC, SECRET) == tuple(path)
    assert analyse(CLASSIC, [((1, 1, 2, 2), score_codes(SECRET, (1, 1, 2, 2)))],
                   secret=SECRET).bot_path == tuple(path)


def test_the_solvers_own_game_scores_full_skill():
    """Playing exactly what the solver plays is 100 skill, whatever the luck."""
    session = SolverSession(CLASSIC, "knuth")
    turns = []
    while not session.solved:
        guess = session.next_guess()
        turns.append((guess, score_codes((6, 6, 1, 3), guess)))
        session.tell(turns[-1][1])
    result = analyse(CLASSIC, turns)
    assert result.skill == 100
    assert all(m.guess == m.solver_guess for m in result.moves)
    assert result.bot_path == ()  # no secret given


def test_a_wasteful_guess_is_called_out():
    """Guessing 1111 first leaves up to 625 codes where the solver's 1122 leaves 256."""
    turns = [((1, 1, 1, 1), score_codes(SECRET, (1, 1, 1, 1)))]
    move = analyse(CLASSIC, turns).moves[0]
    assert (move.worst, move.solver_worst) == (625, 256)
    assert move.after == 625
    assert move.verdict == "left 625 where 256 was possible"
    assert move.skill < 0.6


def test_a_guess_that_could_not_be_the_code():
    turns = [(g, score_codes(SECRET, g)) for g in [(1, 1, 2, 2), (1, 1, 2, 2)[::-1]]]
    moves = analyse(CLASSIC, turns).moves
    assert moves[0].was_possible and not moves[1].was_possible


def test_verdict_words():
    assert verdict(won=True, before=1, after=1, worst=0, solver_worst=0,
                   was_possible=True) == "found it"
    assert verdict(won=False, before=1, after=1, worst=1, solver_worst=0,
                   was_possible=False) == "only one code was left: it wins at once"
    assert verdict(won=False, before=50, after=12, worst=12, solver_worst=4,
                   was_possible=True) == "left 12 where 4 was possible"
    assert verdict(won=False, before=50, after=2, worst=12, solver_worst=4,
                   was_possible=True).startswith("risky")


@pytest.mark.parametrize("rules", [Rules(3, 4, 10, False), Rules(5, 8)])
def test_other_sizes_agree_with_plain_counting(rules):
    secret = (1, 2, 3) if rules.pegs == 3 else (1, 2, 3, 4, 5)
    guess = (2, 3, 4) if rules.pegs == 3 else (1, 1, 2, 2, 3)
    turns = [(guess, score_codes(secret, guess))]
    move = analyse(rules, turns).moves[0]
    codes = [c for c in itertools.product(range(1, rules.colors + 1), repeat=rules.pegs)
             if rules.repeats or len(set(c)) == len(c)]
    assert move.before == len(codes)
    assert move.after == sum(score_codes(c, guess) == turns[0][1] for c in codes)
