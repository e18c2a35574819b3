"""The terminal front end: whole scripted sessions of play and crack, and the commands."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cli.crack import crack_game, parse_reply
from cli.main import Progress, main
from cli.play import play_game
from cli.render import Style, wants_colour
from engine import Feedback, Rules, draw_secret, format_code, score

ROOT = Path(__file__).resolve().parents[1]
CLASSIC = Rules()


class Script:
    """An ``input`` stand-in: shows the prompt, answers the next scripted line, echoes it.

    A line that is the exception class KeyboardInterrupt raises it (Ctrl-C); running out of
    lines raises EOFError (Ctrl-D)."""

    def __init__(self, lines, out: io.StringIO):
        self.lines = list(lines)
        self.out = out
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        self.out.write(prompt)
        if not self.lines:
            raise EOFError
        line = self.lines.pop(0)
        if line is KeyboardInterrupt:
            raise KeyboardInterrupt
        self.out.write(line + "\n")
        return line


def play(lines, secret="1234", rules=CLASSIC):
    out = io.StringIO()
    script = Script(lines, out)
    result = play_game(rules, tuple(int(d) for d in secret), read=script, out=out)
    return result, out.getvalue(), script


def crack(lines, rules=CLASSIC, strategy="knuth"):
    out = io.StringIO()
    script = Script(lines, out)
    result = crack_game(rules, strategy, read=script, out=out)
    return result, out.getvalue(), script


def run(argv, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


# ---- play ---------------------------------------------------------------------------------
def test_play_won_game():
    result, text, _ = play(["1122", "1 2 3 5", "RoYG"])
    assert result.outcome == "won"
    assert len(result.turns) == 3
    assert "1122  ●○··  1 black, 1 white" in text
    assert "1235  ●●●·  3 black, 0 white" in text
    assert "You broke the code in 3 guesses!" in text


def test_play_first_guess_win_is_singular():
    result, text, _ = play(["1234"])
    assert result.outcome == "won"
    assert "in 1 guess!" in text


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("123", "expected 4 pegs, got 3"),
        ("12345", "expected 4 pegs, got 5"),
        ("12x4", "unknown character 'x' at peg 3"),
        ("1279", "colour 7"),
        ("RRRZ", "unknown character 'Z'"),
    ],
)
def test_play_bad_code_does_not_use_a_guess(bad, message):
    result, text, script = play([bad, "1234"])
    assert message in text
    assert "no guess used" in text
    assert script.prompts == ["Guess 1/10> ", "Guess 1/10> "]
    assert result.outcome == "won"
    assert len(result.turns) == 1


def test_play_repeated_guess_does_not_use_a_guess():
    result, text, script = play(["1111", "1111", "1234"])
    assert "You already tried 1111" in text
    assert script.prompts[-1] == "Guess 2/10> "
    assert len(result.turns) == 2


def test_play_board_and_help():
    _, text, script = play(["board", "5566", "1156", "board", "help", "1234"])
    assert "No guesses yet." in text
    board = text.split("Guess 4/10> board\n")[0].split("Guess 3/10> board\n")[1]
    assert "  1  5566  ····  0 black, 0 white" in board
    assert "  2  1156  ●···  1 black, 0 white" in board
    assert "How to play" in text
    assert "black = right colour in the right place" in text
    assert "RROY" in text  # the letter form of the example
    assert script.prompts.count("Guess 3/10> ") == 3  # board and help used no guess


def test_play_help_says_which_codes_use_a_guess_as_they_do():
    """Issue 20: help said "a code that can't be right doesn't use one up", but a code the
    replies rule out does use a guess; only a typo or a repeat doesn't."""
    lines = ["1122", "help", "1111", "12x4", "1122", "3456"]
    result, text, script = play(lines, secret="3456")
    assert "can't be right" not in text
    assert "A typo (not a code of this game) or a code you already tried" in text
    assert "uses none; any other code uses one, even a code the key pegs so far rule out" in text
    # 1111 is ruled out by 1122's 0 black 0 white, and uses guess 2; the typo and the
    # repeat use none.
    assert script.prompts == ["Guess 1/10> ", "Guess 2/10> ", "Guess 2/10> ", "Guess 3/10> ",
                              "Guess 3/10> ", "Guess 3/10> "]
    assert result.outcome == "won" and len(result.turns) == 3


@pytest.mark.parametrize("ending", [["quit"], ["Q"], [], [KeyboardInterrupt]])
def test_play_quit_eof_and_ctrl_c_reveal_the_code(ending):
    result, text, _ = play(["1122", *ending], secret="3456")
    assert result.outcome == "quit"
    assert len(result.turns) == 1
    assert text.rstrip().endswith("You gave up. The code was 3456.")


def test_play_lost_game_reveals_the_code():
    rules = Rules(max_guesses=3)
    result, text, script = play(["1111", "2222", "3333", "4444"], secret="6543", rules=rules)
    assert result.outcome == "lost"
    assert len(result.turns) == 3
    assert "Out of guesses! The code was 6543." in text
    assert script.lines == ["4444"]  # no fourth guess was asked for


def test_play_no_repeats_rules():
    rules = Rules(pegs=3, colors=5, repeats=False)
    result, text, _ = play(["112", "123"], secret="123", rules=rules)
    assert "repeats are off" in text
    assert result.outcome == "won"


def test_play_through_main_with_seed():
    secret = format_code(draw_secret(CLASSIC, 42))
    code, out, err = run(["play", "--seed", "42"], stdin=f"1111\n{secret}\n")
    assert code == 0, err
    assert "Guess 1/10> 1111" in out  # piped input is echoed
    assert "You broke the code in 2 guesses!" in out
    assert "\x1b[" not in out  # not a terminal: no colour


def test_draw_secret():
    assert draw_secret(CLASSIC, 5) == draw_secret(CLASSIC, 5)
    rules = Rules(pegs=5, colors=6, repeats=False)
    for seed in (None, 1, 2, 3):
        code = draw_secret(rules, seed)
        assert len(set(code)) == 5
        assert all(1 <= d <= 6 for d in code)


# ---- crack --------------------------------------------------------------------------------
class Honest:
    """Replies to the computer's guesses with the true score of ``secret``."""

    def __init__(self, secret: str, out: io.StringIO, form: str = "{b} {w}"):
        self.secret = secret
        self.out = out
        self.form = form
        self.guesses: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.out.write(prompt)
        guess = prompt.split(": ")[1].split()[0]
        self.guesses.append(guess)
        fb = score(self.secret, guess)
        return self.form.format(b=fb.black, w=fb.white)


@pytest.mark.parametrize("secret", ["1234", "6543", "1111", "3632", "5566"])
def test_crack_knuth_breaks_a_code_in_five(secret):
    out = io.StringIO()
    honest = Honest(secret, out)
    result = crack_game(CLASSIC, "knuth", read=honest, out=out)
    assert result.outcome == "solved"
    assert honest.guesses[-1] == secret
    assert len(result.turns) <= 5
    assert f"I broke your code {secret} in {len(result.turns)} guess" in out.getvalue()


@pytest.mark.parametrize("form", ["{b}{w}", "{b},{w}", "{b}b{w}w", "{w}w {b}b"])
def test_crack_accepts_reply_forms(form):
    out = io.StringIO()
    result = crack_game(CLASSIC, read=Honest("2516", out, form), out=out)
    assert result.outcome == "solved"


def test_crack_shows_codes_still_possible():
    _, text, _ = crack(["1 0", "quit"])
    assert "1122  ●···  1 black, 0 white  -> 256 codes still possible" in text
    assert "Guess 2/10: 1344  reply> quit" in text
    assert "Bye! Your code stays a secret." in text


def test_crack_impossible_and_unreadable_replies_are_refused():
    result, text, script = crack(["3 1", "5 0", "2 x", "4", "quit"])
    assert "That reply is impossible: 3 black and 1 white can't happen" in text
    assert "That reply is impossible: black and white must each be between 0 and 4" in text
    assert "Not a reply: can't read '2 x'" in text
    assert "give both numbers" in text
    assert result.turns == ()
    assert all(p.startswith("Guess 1/10: 1122") for p in script.prompts)


def test_crack_contradiction_then_undo():
    # 1 black 1 white for 1122, then 0 black 4 white for 1134: no code fits both.
    result, text, script = crack(["1 1", "0 4", "1 1", "undo", "undo", "quit"])
    assert "Those replies contradict each other: no code fits all 2" in text
    assert "undo or reveal> 1 1" in text
    assert "Your replies contradict each other, so I can't guess" in text
    assert "Took back your reply to guess 2" in text
    assert "Took back your reply to guess 1" in text
    assert script.prompts[-1].startswith("Guess 1/10: 1122")
    assert result.outcome == "quit"


def test_crack_contradiction_undo_then_solve():
    out = io.StringIO()
    honest = Honest("1234", out)
    lies = iter(["1 1", "0 4", "undo"])

    def read(prompt):
        line = next(lies, None)
        if line is None:
            return honest(prompt)
        out.write(prompt + line + "\n")
        return line

    result = crack_game(CLASSIC, read=read, out=out)
    assert "contradict" in out.getvalue()
    assert result.outcome == "solved"
    assert result.turns[-1].guess == (1, 2, 3, 4)


def test_crack_reveal_names_the_wrong_turn():
    # Secret 3412: 1122 scores 1 black 1 white; answer 0 2 instead, then answer honestly.
    result, text, _ = crack(["0 2", "reveal", "", "reveal", "34x2", "3412"])
    assert "Not revealed; carry on." in text
    assert "unknown character 'x'" in text
    assert "Your code is 3412; 1 reply was wrong:" in text
    assert "turn 1: 1122 was answered 0 black, 2 white, but the right reply was " in text
    assert "1 black, 1 white" in text
    assert result.outcome == "revealed"


def test_crack_reveal_all_right():
    result, text, _ = crack(["1 1", "reveal", "1234"])
    assert "all your replies were right" in text
    assert result.outcome == "revealed"


def test_crack_player_wins_when_guesses_run_out():
    rules = Rules(max_guesses=2)
    out = io.StringIO()
    result = crack_game(rules, read=Honest("6543", out), out=out)
    assert result.outcome == "player-won"
    assert len(result.turns) == 2
    assert "You win! I'm out of guesses after 2" in out.getvalue()


def test_crack_win_reply_that_contradicts_names_the_wrong_turn():
    # 1134 is answered "4 black", but the earlier reply to 1122 does not fit that code.
    result, text, _ = crack(["1 1", "4 0", "undo", "quit"])
    assert "Those replies contradict each other" in text
    assert "If your code really is 1134, then:" in text
    assert "turn 1: 1122 was answered 1 black, 1 white, but the right reply was 2 black" in text
    assert "I broke" not in text
    assert result.outcome == "quit"


def test_crack_board_and_eof():
    result, text, _ = crack(["board", "1 0", "board"])
    assert "No replies yet." in text
    assert "  1  1122  ●···  1 black, 0 white" in text
    assert result.outcome == "quit"  # the script ran out: EOF


@pytest.mark.parametrize(
    ("text", "reply"),
    [("2 1", (2, 1)), ("21", (2, 1)), ("2,1", (2, 1)), ("2b1w", (2, 1)), ("2B 1W", (2, 1)),
     ("1w2b", (2, 1)), ("3b", (3, 0)), ("1 white", (0, 1)), ("0/0", (0, 0))],
)
def test_parse_reply(text, reply):
    assert parse_reply(text) == reply


@pytest.mark.parametrize("text", ["", "2", "2 1 0", "bw", "2x1", "2b2b", "1234"])
def test_parse_reply_rejects(text):
    with pytest.raises(ValueError):
        parse_reply(text)


# ---- score, evaluate, arguments -----------------------------------------------------------
def test_score_command():
    assert run(["score", "2532", "3523"])[:2] == (0, "2532 3523 -> 1 black, 2 white\n")
    assert run(["score", "RROY", "1123"])[1] == "1123 1123 -> 4 black, 0 white\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [(["2532", "35x3"], "guess '35x3': unknown character 'x'"),
     (["253", "3523"], "different lengths")],
)
def test_score_bad_codes(args, message):
    code, out, err = run(["score", *args])
    assert code == 2
    assert out == ""
    assert err.startswith("mastermind: error: ")
    assert message in err


def test_evaluate_json():
    code, out, err = run(["evaluate", "--strategy", "knuth", "--pegs", "4", "--colors", "5",
                          "--json"])
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"strategy", "pegs", "colors", "repeats", "codes", "total", "average",
                         "max", "distribution", "seconds"}
    assert (data["strategy"], data["pegs"], data["colors"], data["repeats"]) == (
        "knuth", 4, 5, True)
    dist = {int(k): v for k, v in data["distribution"].items()}
    assert sum(dist.values()) == data["codes"] == 625
    assert sum(k * v for k, v in dist.items()) == data["total"]
    assert data["max"] == max(dist)
    assert err == ""


def test_evaluate_text():
    code, out, _ = run(["evaluate", "--pegs", "3", "--colors", "4", "--no-repeats",
                        "--strategy", "entropy"])
    assert code == 0
    assert "entropy on 3 pegs · 4 colours · no repeats: 24 codes" in out
    assert "guesses    games   share" in out
    assert "█" in out
    assert "average" in out and "max" in out


def test_progress_throttles_and_stays_off_stdout():
    now = [0.0]
    stream = io.StringIO()
    progress = Progress(stream, "evaluating", delay=0.5, interval=5.0, clock=lambda: now[0])
    progress(1, 100)  # too early: nothing
    for t in (1.0, 2.0, 6.5, 7.0):
        now[0] = t
        progress(int(t * 10), 100)
    progress.finish()
    assert stream.getvalue() == "evaluating: 10/100 codes (10%)\nevaluating: 65/100 codes (65%)\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--pegs", "9"], "mastermind: error: pegs must be between 2 and 8 (got 9)"),
        (["crack", "--colors", "1"], "mastermind: error: colors must be between 2 and 9"),
        (["play", "--max-guesses", "0"], "mastermind: error: max_guesses must be between"),
        (["crack", "--pegs", "5", "--colors", "4", "--no-repeats"], "need at least 5 colours"),
        (["evaluate", "--pegs", "8", "--colors", "9"], "supports up to"),
    ],
)
def test_bad_rules_exit_2(argv, message):
    code, _, err = run(argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [["play", "--pegs", "x"], ["crack", "--strategy", "nope"], ["score", "1234"], ["fly"]],
)
def test_bad_arguments_give_usage(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "usage: mastermind" in err
    assert "error:" in err
    assert "Traceback" not in err


def test_no_command_prints_help():
    code, out, _ = run([])
    assert code == 2
    assert "play" in out and "crack" in out and "evaluate" in out


# ---- colour -------------------------------------------------------------------------------
def test_colour_keeps_digits_and_respects_no_color(monkeypatch):
    style = Style(colour=True)
    shown = style.code((1, 2, 9))
    assert "\x1b[" in shown
    assert re.sub(r"\x1b\[[0-9;]*m", "", shown) == " 1   2   9 "
    assert style.key(Feedback(1, 1), 4).count("●") == 1

    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert wants_colour(Tty())
    assert not wants_colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not wants_colour(Tty())
    assert wants_colour(Tty(), "always")
    _, out, _ = run(["score", "12", "21", "--color", "always"])
    assert "\x1b[" in out and "0 black, 2 white" in out


# ---- the real command ---------------------------------------------------------------------
def _env():
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    return env


def test_python_dash_m_cli():
    proc = subprocess.run(
        [sys.executable, "-m", "cli", "score", "2532", "3523"],
        capture_output=True, text=True, cwd=ROOT, env=_env(), timeout=60, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "2532 3523 -> 1 black, 2 white\n"


def test_console_script():
    script = Path(sys.executable).with_name("mastermind")
    exe = str(script) if script.exists() else shutil.which("mastermind")
    if exe is None:
        pytest.skip("the mastermind console script is not installed")
    proc = subprocess.run(
        [exe, "play", "--pegs", "9"], capture_output=True, text=True, timeout=60, check=False,
    )
    assert proc.returncode == 2
    assert "mastermind: error: pegs must be between 2 and 8" in proc.stderr
    assert "Traceback" not in proc.stderr
    proc = subprocess.run(
        [exe, "play", "--seed", "1", "--pegs", "3", "--colors", "3"],
        input="111\nquit\n", capture_output=True, text=True, timeout=60, check=False,
    )
    assert proc.returncode == 0
    assert "You gave up. The code was " in proc.stdout
