"""``mastermind play --analyse`` and ``crack --analyse`` print the engine's analysis."""

from __future__ import annotations

import io

from cli.main import main
from engine import Rules, draw_secret, format_code, score_codes
from engine.analysis import analyse


def run(argv, lines):
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO("".join(f"{x}\n" for x in lines)), stdout=out,
                stderr=err)
    return code, out.getvalue()


def test_play_analyse_prints_every_move_and_the_scores():
    secret = draw_secret(Rules(), 7)
    guesses = ["1122", "3456", format_code(secret)]
    code, text = run(["play", "--seed", "7", "--analyse", "--color", "never"], guesses)
    assert code == 0
    turns = [(tuple(int(d) for d in g), score_codes(secret, tuple(int(d) for d in g)))
             for g in dict.fromkeys(guesses)]
    expected = analyse(Rules(), turns, secret=secret)
    body = text.split("Analysis", 1)[1]
    for move in expected.moves:
        assert f"{move.before:,} -> {move.after:,} codes" in body
        assert move.verdict in body
    assert f"Skill {expected.skill}/100" in body
    assert "Codes left per guess, solver: " + " ".join(
        f"{n:,}" for n in expected.bot_path) in body


def test_crack_analyse_judges_the_computer():
    secret = (6, 6, 1, 3)
    from engine import SolverSession
    session = SolverSession(Rules())
    replies = []
    while not session.solved:
        fb = score_codes(secret, session.next_guess())
        replies.append(f"{fb.black} {fb.white}")
        session.tell(fb)
    code, text = run(["crack", "--analyse", "--color", "never"], replies)
    assert code == 0
    assert "Skill 100/100" in text
    assert "Codes left per guess, the computer:" in text


def test_without_the_flag_there_is_no_analysis():
    code, text = run(["play", "--seed", "7", "--color", "never"], ["quit"])
    assert code == 0 and "Analysis" not in text
