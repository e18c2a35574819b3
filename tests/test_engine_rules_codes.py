"""Rules validation and code parsing: every rejection says what is wrong."""

import re

import pytest

from engine import InvalidCode, InvalidRules, Rules, format_code, format_emoji, parse_code
from engine.colors import PALETTE


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"pegs": 1}, "pegs must be between 2 and 8 (got 1)"),
        ({"pegs": 9}, "pegs must be between 2 and 8 (got 9)"),
        ({"colors": 10}, "colors must be between 2 and 9 (got 10)"),
        ({"max_guesses": 0}, "max_guesses must be between 1 and 20 (got 0)"),
        ({"max_guesses": 21}, "max_guesses must be between 1 and 20 (got 21)"),
        ({"pegs": 5, "colors": 4, "repeats": False}, "5 pegs need at least 5 colours (got 4)"),
        ({"pegs": "4"}, "pegs must be a whole number"),
    ],
)
def test_invalid_rules_name_the_limit(kwargs, message):
    with pytest.raises(InvalidRules, match=re.escape(message)):
        Rules(**kwargs)


def test_rule_sizes():
    assert Rules().code_count == 1296
    assert Rules(repeats=False).code_count == 360
    assert Rules(8, 9).code_count == 9**8
    assert Rules(8, 9, repeats=False).code_count == 362880
    assert Rules(4, 6, 10, False).size_label == "4x6 no-repeats"


@pytest.mark.parametrize(
    "text",
    ["1123", "1 1 2 3", "1-1-2-3", "1,1,2,3", " 1123 ", "１１２３", "RROY", "rroy", "R R O Y",
     "\N{LARGE RED CIRCLE}\N{LARGE RED CIRCLE}\N{LARGE ORANGE CIRCLE}\N{LARGE YELLOW CIRCLE}",
     "1\ufe0f123"],
)
def test_parse_accepts_every_documented_form(text):
    assert parse_code(text, Rules()) == (1, 1, 2, 3)


@pytest.mark.parametrize(
    ("text", "rules", "message"),
    [
        ("12345", Rules(), "expected 4 pegs, got 5"),
        ("12", Rules(), "expected 4 pegs, got 2"),
        ("", Rules(), "the code is empty"),
        ("1723", Rules(), "colour 7 (N = brown) at peg 2 is out of range: this game uses colours"),
        ("1023", Rules(), "colour 0 (no such colour) at peg 2 is out of range"),
        ("11x3", Rules(), "unknown character 'x' at peg 3: use the digits 1-6 or the letters"),
        ("11\N{GRINNING FACE}3", Rules(), "unknown character '\N{GRINNING FACE}' at peg 3"),
        ("1123", Rules(repeats=False), "colour 1 appears twice, but repeats are off"),
        ("1" * 500, Rules(), "that is 500 characters long"),
        ("1W23", Rules(), "colour 8 (W = white) at peg 2 is out of range"),
    ],
)
def test_parse_rejections_say_what_is_wrong(text, rules, message):
    with pytest.raises(InvalidCode) as err:
        parse_code(text, rules)
    assert message in str(err.value)
    assert len(str(err.value)) < 200


def test_palette_is_one_consistent_table():
    assert [c.digit for c in PALETTE] == list(range(1, 10))
    assert len({c.letter for c in PALETTE}) == 9
    assert len({c.emoji for c in PALETTE}) == 9
    code = (1, 2, 3, 4, 5, 6, 7, 8)
    assert parse_code(format_emoji(code), Rules(8, 9)) == code
    assert format_code(code) == "12345678"
