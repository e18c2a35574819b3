"""``mastermind match``: the 1978 game of rounds in the terminal, scripted end to end."""

from __future__ import annotations

import io
import re

import pytest

from cli.main import main
from engine import CLASSIC, draw_secret, format_code, score

ASKED = re.compile(r"Guess (\d+)/\d+: (\d+)\s+reply> $")


class Player:
    """Answers the prompts: its scripted guesses in the breaker halves, the truth about
    ``code`` in the computer's halves (``lie`` replies first, to be taken back)."""

    def __init__(self, guesses, code, out, lies=()):
        self.guesses, self.code, self.out, self.lies = list(guesses), code, out, list(lies)
        self.given: list[bool] = []  # the replies standing: True for a lie
        self.undoing = False

    def line(self, prompt: str) -> str:
        asked = ASKED.search(prompt)
        if prompt.startswith("undo or reveal"):
            self.undoing = True  # take back replies until no lie stands
        if self.undoing and any(self.given):
            self.given.pop()
            return "undo"
        self.undoing = False
        if asked:
            self.given.append(bool(self.lies))
            if self.lies:
                return self.lies.pop(0)
            fb = score(self.code, asked[2])
            return f"{fb.black} {fb.white}"
        return self.guesses.pop(0)


def run_match(player: Player, *argv: str) -> tuple[int, str]:
    class Input(io.StringIO):
        def readline(self, *_):  # one scripted line per prompt, chosen from the prompt
            prompt = out.getvalue().rsplit("\n", 1)[-1]
            return player.line(prompt) + "\n"

    out = io.StringIO()
    player.out = out
    code = main(["match", "--color", "never", *argv], stdin=Input(), stdout=out,
                stderr=io.StringIO())
    return code, out.getvalue()


def test_a_two_round_match_is_scored_after_every_round():
    """The score is shown once both halves of a round are played (issue 20: "Score: you 2,
    me 0" came before the computer had played its half)."""
    first, second = (format_code(draw_secret(CLASSIC, 7 + r)) for r in (1, 2))
    miss = "1111" if first != "1111" else "2222"
    player = Player(["board", miss, first, second], "3632", None)
    code, text = run_match(player, "--rounds", "2", "--seed", "7")
    assert code == 0
    assert "No guesses yet." in text  # board before any guess
    computer = [int(n) for n in re.findall(r"I broke your code \S+ in (\d+) guess", text)]
    assert len(computer) == 2 and all(1 <= n <= 5 for n in computer)
    scores = re.findall(r"Score after round (\d): you (\d+), me (\d+)", text)
    assert scores == [("1", "2", str(computer[0])), ("2", "3", str(sum(computer)))]
    assert "me 0" not in text
    assert "You scored 2 moves this round; now my half." in text
    assert "You scored 1 move this round" in text
    total = sum(computer)
    if total > 3:
        assert f"You win the match, 3 moves to {total}!" in text
    elif total < 3:
        assert f"I win the match, {total} move{'s' * (total != 1)} to 3." in text
    else:
        assert "A draw: 3 moves each." in text


def test_contradictions_are_taken_back_and_quit_asks_then_forfeits_with_the_score():
    secret = format_code(draw_secret(CLASSIC, 1 + 1))
    # "0 0" to 1122 and then to the next guess contradicts for the code 1234. In round 2,
    # quit is asked about: "no" plays on, then "yes" forfeits.
    player = Player([secret, "quit", "no", "1122", "quit", "yes"], "1234", None,
                    lies=["0 0", "0 0", "0 0", "0 0"])
    code, text = run_match(player, "--rounds", "2", "--seed", "1")
    assert code == 0
    assert "contradict each other" in text and "Took back your reply" in text
    mine = re.search(r"Score after round 1: you 1, me (\d+)", text)
    assert mine
    standing = f"you 1, me {mine[1]} after 1 round"
    asked = f"Quitting forfeits the match ({standing}).\nForfeit the match? (yes/no)> "
    assert text.count(asked) == 2
    assert f"{asked}no\nNot quitting: carry on.\nGuess 1/10> 1122" in text
    assert text.rstrip().endswith(f"{asked}yes\nYou gave up. The code was "
                                  f"{format_code(draw_secret(CLASSIC, 1 + 2))}.\n"
                                  f"You quit, so you forfeit the match.\n"
                                  f"Final score: {standing}.")


def test_quit_in_the_computers_half_asks_too_and_shows_the_half_played():
    secret = format_code(draw_secret(CLASSIC, 1 + 1))
    player = Player([secret, "yes"], "1234", None, lies=["quit"])  # quit at its first guess
    code, text = run_match(player, "--rounds", "1", "--seed", "1")
    assert code == 0
    assert "Forfeit the match? (yes/no)> yes" in text
    assert text.rstrip().endswith(
        "Final score: no round finished yet; this round, you 1, me not played yet.")


@pytest.mark.parametrize(("command", "words"), [
    ("match", "how the computer guesses your codes in its halves (default: the strongest"),
    ("crack", "how the computer guesses your code (default: the strongest for the size"),
    ("evaluate", "the strategy to measure (default: knuth"),
])
def test_each_command_describes_its_own_strategy_option(capsys, command, words):
    """Issue 20: match --help described --strategy with the other commands' text."""
    assert main([command, "--help"]) == 0
    helped = " ".join(capsys.readouterr().out.split())
    assert words in helped
    assert "crack:" not in helped and "evaluate:" not in helped


def test_rounds_out_of_range_are_refused():
    out, err = io.StringIO(), io.StringIO()
    assert main(["match", "--rounds", "11"], stdin=io.StringIO(), stdout=out, stderr=err) == 2
    assert "--rounds must be 1 to 10" in err.getvalue()
