"""Reading a code a player typed, with the engine's reason when it is wrong."""

from __future__ import annotations

from engine import Code, InvalidCode, Rules, parse_code

from .errors import BadCode


def read_code(text: str, rules: Rules, example_command: str) -> Code:
    """Parse a player's code, or raise :class:`BadCode` saying how to type it here."""
    try:
        return parse_code(text, rules)
    except InvalidCode as exc:
        raise BadCode(str(exc), rules, example_command) from None
