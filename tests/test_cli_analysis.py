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
        left = "1 code" if move.after == 1 else f"{move.after:,} codes"
        assert f"{move.before:,} -> {left}" in body
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


def test_lines_fit_100_columns_wrapping_only_between_fields():
    """Issue 20: 8x9 lines wrapped mid-field at 100 columns; "42 -> 1 codes"."""
    rules = Rules(8, 9)
    secret = draw_secret(rules, 3)
    guesses = ["11223344", "55667788", "12345678", "98765432"]
    code, text = run(["play", "--pegs", "8", "--colors", "9", "--seed", "3", "--analyse",
                      "--color", "never"], [*guesses, "quit"])
    assert code == 0
    body = text.split("Analysis\n", 1)[1].splitlines()
    assert body and all(len(line) <= 100 for line in body), body
    turns = [(tuple(int(d) for d in g), score_codes(secret, tuple(int(d) for d in g)))
             for g in guesses]
    for move in analyse(rules, turns, secret=secret).moves:
        fields = [f"{move.before:,} -> {move.after:,} code", f"worst {move.worst:,}, avg "
                  f"{move.average:,.1f}", f"| solver {format_code(move.solver_guess)} worst "
                  f"{move.solver_worst:,}, avg {move.solver_average:,.1f}", move.verdict]
        for field in fields:  # each whole on one line
            assert any(field in line for line in body), (field, body)
        assert f" -> {move.after:,} codes" in text or move.after == 1
    assert " -> 1 codes" not in text


def test_the_luck_of_a_lucky_find_is_shown_beside_the_games():
    """Issue 20: "a 1 in 63 shot" beside "luck 47/100" puzzled a player: each move's luck
    is shown, and the legend says the game's is their mean."""
    secret = draw_secret(Rules(), 7)
    guesses = ["1122", "5556", format_code(secret)]
    code, text = run(["play", "--seed", "7", "--analyse", "--color", "never"], guesses)
    assert code == 0
    turns = [(tuple(int(d) for d in g), score_codes(secret, tuple(int(d) for d in g)))
             for g in guesses]
    result = analyse(Rules(), turns, secret=secret)
    assert result.moves[-1].verdict.startswith("found it: a 1 in")
    each = ", ".join(str(round(100 * m.luck)) for m in result.moves)
    assert f"luck {result.luck}/100 (the mean of each move's: {each})" in text
    assert "the game's luck is the mean of its moves" in text
