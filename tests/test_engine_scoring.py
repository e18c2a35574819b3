"""Scoring: the worked example, properties against a plain reference, and reply validation."""

import itertools
import re
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Feedback, InvalidFeedback, Rules, possible_feedbacks, score, validate_feedback
from engine.filtering import _HalfGroups
from engine.space import CodeSpace, space_for


def reference_score(secret, guess):
    """The rule as written: black = agreeing positions; white = common colours minus black."""
    black = sum(1 for a, b in zip(secret, guess, strict=True) if a == b)
    common = sum(min(secret.count(c), guess.count(c)) for c in set(secret) | set(guess))
    return black, common - black


def test_worked_example():
    assert score("2532", "3523") == Feedback(1, 2)
    assert score((1, 1, 2, 2), (1, 1, 2, 2)) == Feedback(4, 0)
    assert str(score("1122", "2211")) == "0 black, 4 white"


@st.composite
def rules_and_codes(draw, n=2):
    pegs = draw(st.integers(2, 8))
    colors = draw(st.integers(2, 9))
    repeats = draw(st.booleans()) or colors < pegs
    if repeats:
        code = st.lists(st.integers(1, colors), min_size=pegs, max_size=pegs)
    else:
        code = st.permutations(range(1, colors + 1)).map(lambda p: p[:pegs])
    return Rules(pegs, colors, 10, repeats), [tuple(draw(code)) for _ in range(n)]


@given(rules_and_codes())
def test_score_properties(case):
    rules, (a, b) = case
    fb = score(a, b)
    assert fb == score(b, a)
    assert fb.black + fb.white <= rules.pegs
    assert not (fb.black == rules.pegs - 1 and fb.white == 1)
    assert tuple(fb) == reference_score(a, b)
    assert Feedback.decode(fb.encode(rules.pegs), rules.pegs) == fb


@settings(max_examples=60, deadline=None)
@given(rules_and_codes(n=6))
def test_vectorised_scoring_agrees_with_reference(case):
    rules, codes = case
    space = space_for(rules)
    idx = np.array([space.index(c) for c in codes])
    block = space.feedback_block(idx, idx)
    for i, g in enumerate(codes):
        assert space.code(int(idx[i])) == g
        for j, s in enumerate(codes):
            assert tuple(Feedback.decode(block[i, j], rules.pegs)) == reference_score(s, g)


@pytest.mark.parametrize("rules", [Rules(5, 6), Rules(4, 3), Rules(3, 7)])
def test_half_group_filter_matches_direct_scoring(rules):
    space = CodeSpace(rules)
    everything = space.all_indices()
    for guess in (0, space.size // 3, space.size - 1):
        groups = _HalfGroups(space, guess)
        direct = space.feedback_one(guess, everything)
        assert (groups.feedback(everything) == direct).all()
        for reply in np.unique(direct):
            assert (groups.matching_space(int(reply)) == everything[direct == reply]).all()


@pytest.mark.parametrize(
    "rules", [Rules(4, 6), Rules(4, 6, repeats=False), Rules(3, 3, repeats=False), Rules(5, 3)]
)
def test_possible_feedbacks_match_brute_force(rules):
    """Every guess against the brute force over every code. The brute force is computed
    once per shape of guess (how many pegs of each colour, sorted): renaming the colours
    and reordering the pegs maps the codes onto themselves and keeps every score, so
    guesses of one shape have the same replies (1122, 2211, 3443 ...)."""
    codes = [
        c for c in itertools.product(range(1, rules.colors + 1), repeat=rules.pegs)
        if rules.repeats or len(set(c)) == rules.pegs
    ]
    by_shape: dict[tuple[int, ...], set[Feedback]] = {}
    for guess in codes:
        shape = tuple(sorted(Counter(guess).values()))
        if shape not in by_shape:
            by_shape[shape] = {Feedback(*reference_score(c, guess)) for c in codes}
        assert possible_feedbacks(rules, guess) == by_shape[shape]


@pytest.mark.parametrize(
    ("rules", "guess", "reply", "reason"),
    [
        (Rules(), (1, 1, 2, 2), (3, 2), "3 black + 2 white = 5, but there are only 4 pegs"),
        (Rules(), (1, 1, 2, 2), (3, 1), "3 black and 1 white can't happen"),
        (Rules(), (1, 1, 2, 2), (-1, 0), "between 0 and 4"),
        (Rules(), (1, 1, 1, 1), (0, 2), "all one colour"),
        (Rules(4, 5, repeats=False), (1, 2, 3, 4), (0, 2), "must be at least 3"),
        (Rules(4, 6, repeats=False), (1, 2, 3, 4), (0, 1), "must be at least 2"),
        (Rules(4, 2), (1, 1, 2, 2), (0, 0), "no code gives 0 black, 0 white for 1122"),
    ],
)
def test_impossible_replies_are_refused_with_a_reason(rules, guess, reply, reason):
    with pytest.raises(InvalidFeedback, match=re.escape(reason)):
        validate_feedback(rules, guess, reply)


def test_every_real_reply_is_accepted():
    rules = Rules(4, 6)
    guess = (1, 1, 2, 3)
    for secret in itertools.product(range(1, 7), repeat=4):
        fb = score(secret, guess)
        assert validate_feedback(rules, guess, fb) == fb
    assert Counter(len(possible_feedbacks(rules, g)) for g in [(1, 1, 2, 2)]) == {13: 1}
