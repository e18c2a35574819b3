"""Solver sessions: replies, refusals, contradictions, take-back, reveal and replay."""

import pytest

from engine import (
    Feedback,
    InconsistentFeedback,
    InvalidFeedback,
    Rules,
    SolverSession,
    UnknownStrategy,
    score_codes,
)


def test_knuth_session_breaks_a_code():
    session = SolverSession(Rules(), "knuth")
    secret = (5, 5, 1, 2)
    assert session.remaining == 1296
    while not session.solved:
        before = session.remaining
        remaining = session.tell(score_codes(secret, session.next_guess()))
        assert remaining == session.remaining < before or session.solved
    assert session.turns[-1].guess == secret
    assert len(session.turns) <= 5


def test_impossible_reply_is_refused_and_not_recorded():
    session = SolverSession(Rules())
    assert session.next_guess() == (1, 1, 2, 2)
    with pytest.raises(InvalidFeedback, match="3 black and 1 white"):
        session.tell((3, 1))
    assert session.turns == ()
    assert session.remaining == 1296


def test_contradiction_take_back_and_reveal():
    secret = (6, 5, 4, 3)
    session = SolverSession(Rules())
    session.tell(score_codes(secret, session.next_guess()))  # 1122 -> 0 black, 0 white: true
    # From here on the player wrongly answers "nothing matches" until no code is left.
    with pytest.raises(InconsistentFeedback) as err:
        for _ in range(10):
            session.next_guess()
            session.tell((0, 0))
    assert "no code fits" in str(err.value)
    assert err.value.turn == len(session.turns)
    assert session.inconsistent and session.remaining == 0
    with pytest.raises(InconsistentFeedback):
        session.next_guess()
    mistakes = session.check_against("6543")
    assert [m.turn for m in mistakes] == list(range(2, len(session.turns) + 1))
    assert all(m.given == Feedback(0, 0) for m in mistakes)
    assert all(m.correct == score_codes(secret, m.guess) for m in mistakes)
    assert "but the right reply was" in str(mistakes[0])
    turns = len(session.turns)
    taken = session.take_back()
    assert taken.feedback == Feedback(0, 0)
    assert len(session.turns) == turns - 1
    assert not session.inconsistent
    session.next_guess()


def test_take_backs_rebuild_the_big_sets_a_session_let_go(monkeypatch):
    """Sets older than the previous one are dropped when big, and filtered again when a
    take-back reaches them: the session says and plays exactly what one keeping all would."""
    import numpy as np

    from engine import solver

    rules, secret = Rules(5, 8), (3, 7, 7, 1, 2)
    keeping, dropping = SolverSession(rules, "knuth"), SolverSession(rules, "knuth")
    for session, keep in ((keeping, 1 << 40), (dropping, 0)):  # 0: every older set is big
        monkeypatch.setattr(solver, "KEEP_OLD_SET_BYTES", keep)
        for _ in range(3):
            session.tell(score_codes(secret, session.next_guess()))
    assert dropping.nbytes < keeping.nbytes  # only the last two sets are held
    while keeping.turns:
        assert keeping.take_back() == dropping.take_back()
        assert keeping.remaining == dropping.remaining
        if keeping.possible is not None:
            assert dropping.possible is not None
            assert np.array_equal(keeping.possible, dropping.possible)
        assert keeping.next_guess() == dropping.next_guess()
    assert dropping.possible is None and dropping.remaining == rules.code_count


def test_a_direct_contradiction():
    session = SolverSession(Rules(3, 3))
    guess = session.next_guess()
    session.tell((0, 0))  # none of the guess's colours
    with pytest.raises(InconsistentFeedback) as err:
        while True:
            g = session.next_guess()
            session.tell((0, 0) if set(g) - set(guess) else (1, 0))
    assert err.value.turn == len(session.turns)


def test_replay_rebuilds_the_same_session():
    secret = (2, 4, 6, 1, 3)
    rules = Rules(5, 7)
    live = SolverSession(rules, "entropy")
    while not live.solved:
        live.tell(score_codes(secret, live.next_guess()))
    again = SolverSession.replay(rules, "entropy", [t.feedback for t in live.turns])
    assert again.turns == live.turns
    assert again.solved


def test_unknown_strategy_lists_the_choices():
    with pytest.raises(UnknownStrategy, match="knuth"):
        SolverSession(Rules(), "magic")


def test_largest_rules_keep_tables_small():
    """8 pegs x 9 colours has 43M codes: the possible sets must stay under ~64 MiB."""
    rules = Rules(8, 9, 20)
    session = SolverSession(rules, "knuth")
    secret = (9, 8, 7, 6, 5, 4, 3, 2)
    for _ in range(3):
        session.tell(score_codes(secret, session.next_guess()))
        held = session.nbytes
        assert held < 64 * 2**20
    assert Feedback(8, 0) not in [t.feedback for t in session.turns] or session.solved


def test_restore_from_stored_turns_matches_live_play():
    rules = Rules(5, 8)
    secret = (8, 1, 8, 2, 3)
    live = SolverSession(rules, "knuth")
    for _ in range(3):
        live.tell(score_codes(secret, live.next_guess()))
    restored = SolverSession.restore(rules, "knuth", [(t.guess, t.feedback) for t in live.turns])
    assert restored.turns == live.turns
    assert restored.remaining == live.remaining
    assert restored.next_guess() == live.next_guess()
