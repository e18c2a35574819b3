"""The picker as a player sees it (pure functions of a :class:`~.state.Picker`), and the
words for its mistakes.

On a phone: the heading, then the code so far drawn large as pegs (an empty hole for each
peg still to pick) with its digits under it; under that the colours as a grid of buttons
(peg and digit: colour-blind players go by the digit), then one row: type it, delete the
last peg, and submit, which stays grey until the code is complete.
"""

from __future__ import annotations

import discord

from engine import format_code
from i18n import tr, trn

from ...ui.messages import says
from ...ui.pegs import button_emoji, hole, peg_emoji
from .buttons import PickerButton
from .errors import NotYourPicker
from .state import Op, Picker, Tap

NOT_YET = "\N{MIDDLE DOT}"  # the digit of a peg not picked yet
#: Colour buttons per row: five (Discord's most) wrap on a 400 px phone, four fit.
ROW_WIDTH = 4
DELETE = "\N{ERASE TO THE LEFT}"
SUBMIT = "\N{CHECK MARK}"  # text, not an emoji: drawn in the button's own colour
TYPE = "\N{KEYBOARD}\ufe0f"


def colour_rows(colors: int) -> list[range]:
    """The colour digits in as few rows as fit a phone, as even as can be: ``1-4`` for 4,
    ``1-3, 4-6`` for 6, ``1-3, 4-6, 7-9`` for 9 (a keypad)."""
    count = -(-colors // ROW_WIDTH)
    rows, start = [], 1
    for r in range(count):
        width = -(-(colors - start + 1) // (count - r))
        rows.append(range(start, start + width))
        start += width
    return rows


def code_lines(picker: Picker, verb: str) -> str:
    """The code so far, large, and its digits with what to do next."""
    size = "#" if picker.pegs <= 5 else "##"
    holes = " ".join([*(peg_emoji((d,)) for d in picker.code), *[hole()] * picker.missing])
    digits = format_code(picker.code) + NOT_YET * picker.missing
    status = (tr("ready: press **{verb}**", verb=verb) if picker.complete
              else trn("pick {count} more", "pick {count} more", picker.missing))
    if not picker.repeats:
        status += " · " + tr("each colour once")
    return f"{size} {holes}\n`{digits}` {status}"


def picker_content(picker: Picker, heading: str, verb: str, note: str | None = None) -> str:
    return "\n".join(p for p in (note, heading, code_lines(picker, verb)) if p)[:2000]


def picker_view(picker: Picker, verb: str) -> discord.ui.View:
    """Colour buttons in rows, then type / delete / submit. Colours that can't come next
    (the code is full; with repeats off, one already picked) are greyed out, and so are
    delete on an empty code and submit on an incomplete one."""
    view = discord.ui.View(timeout=None)
    rows = colour_rows(picker.colors)
    for r, digits in enumerate(rows):
        for d in digits:
            view.add_item(PickerButton(Tap(picker, d), label=str(d), emoji=button_emoji(d),
                                       disabled=not picker.allowed(d), row=r))
    last = len(rows)
    view.add_item(PickerButton(Tap(picker, Op.TYPE), label=tr("Type"), emoji=TYPE, row=last))
    view.add_item(PickerButton(Tap(picker, Op.DELETE), label=DELETE + " " + tr("Delete"),
                               disabled=not picker.code, row=last))
    view.add_item(PickerButton(Tap(picker, Op.SUBMIT), label=f"{SUBMIT} {verb}",
                               style=discord.ButtonStyle.success,
                               disabled=not picker.complete, row=last))
    return view


# ---- notes drawn in the picker (a tap that can't apply: nothing changes) --------------------
def cannot_add(picker: Picker, digit: int) -> str:
    if picker.complete:
        return tr("Your code is full: delete a peg, or submit it.")
    return tr("Colour {digit} is already in your code, and no colour may repeat in this "
              "game: pick another.", digit=digit)


def nothing_to_delete() -> str:
    return tr("Nothing to delete yet: pick a colour first.")


def incomplete(picker: Picker) -> str:
    return trn("Your code has {picked} of {pegs} pegs: pick {count} more peg first.",
               "Your code has {picked} of {pegs} pegs: pick {count} more pegs first.",
               picker.missing, picked=len(picker.code), pegs=picker.pegs)


# ---- the words for picker mistakes ----------------------------------------------------------
@says(NotYourPicker)
def _not_yours(error: NotYourPicker) -> tuple[str, str]:
    return tr("This picker isn't yours"), tr(
        "It belongs to another player, so nothing was picked or stored. Press the button "
        "on the board to open your own.")
