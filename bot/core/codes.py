"""Reading a code a player typed, with the engine's reason when it is wrong."""

from __future__ import annotations

from engine import Code, InvalidCode, Rules, parse_code

from .enums import CodeEntry
from .errors import BadCode


def read_code(text: str, rules: Rules, entry: CodeEntry = CodeEntry.CODE) -> Code:
    """Parse a player's code typed at ``entry``, or raise :class:`BadCode`."""
    try:
        return parse_code(text, rules)
    except InvalidCode as exc:
        raise BadCode(str(exc), rules, entry) from None
