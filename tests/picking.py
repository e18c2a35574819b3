"""Playing with taps, as a player does: press a board's button, tap colours, submit.

Shared by the picker tests (tests/test_bot_picker*.py) and the picker benches."""

from __future__ import annotations

import re

#: The last field of a picker button's custom_id: a colour digit, or x (delete), s (submit),
#: t (type), o (open).
OP = re.compile(r":([1-9a-z])$")


def button(message, op: str) -> dict:
    """The picker button of ``message`` for ``op`` (a digit, "x", "s", "t" or "o")."""
    for comp in message.buttons:
        cid = comp.get("custom_id") or ""
        found = OP.search(cid)
        if cid.startswith("mmp:") and found and found[1] == op:
            return comp
    raise AssertionError(f"no picker button {op!r} in {message.custom_ids}")


async def tap(fake, bot, message, op: str, user):
    """Tap one picker button; returns the interaction's result."""
    return await fake.click(bot, message, button(message, str(op))["custom_id"], user=user)


async def open_picker(fake, bot, board, user, *, label: str = "Guess"):
    """Press a board's button that opens a picker; returns (result, the picker message)."""
    custom_id = board.component(label=label)["custom_id"]
    result = await fake.click(bot, board, custom_id, user=user)
    picker = result.message
    assert picker is not None and picker.ephemeral, (result, result.embeds)
    return result, picker


async def pick(fake, bot, picker, code: str, user):
    """Tap the colours of ``code`` in; returns the picker as it now stands (and the taps)."""
    taps = 0
    for digit in code:
        result = await tap(fake, bot, picker, digit, user)
        assert result.response is not None and result.response.type == 7, result  # in place
        picker = fake.message(picker.id)
        taps += 1
    return picker, taps


async def play(fake, bot, board, code: str, user):
    """From the board: Guess, the colours, Submit (n + 2 taps). Returns the submit's result,
    the picker and the number of taps."""
    _, picker = await open_picker(fake, bot, board, user)
    picker, taps = await pick(fake, bot, picker, code, user)
    submitted = await tap(fake, bot, picker, "s", user)
    return submitted, fake.message(picker.id), taps + 2
