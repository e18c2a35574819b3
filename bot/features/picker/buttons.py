"""The picker's buttons (every ``mmp:`` id) and its typed form. They only read their
custom_id (:mod:`.state`) and hand over to :mod:`.flow`."""

from __future__ import annotations

import re

import discord

from engine import Rules, example
from i18n import tr

from ...core.errors import MalformedButton
from ...ui.buttons import MAX_ID, ReportingButton, ReportingModal
from .state import Op, Picker, Tap, read_tap


class PickerButton(ReportingButton, prefix="mmp"):
    """A colour, delete, submit or type button of a picker, or a board's button that opens
    one. Every ``mmp:`` id lands here, so one this version can't read is answered."""

    def __init__(self, tap: Tap | None, *, label: str | None = None,
                 emoji: str | discord.PartialEmoji | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False, row: int | None = None):
        self.tap = tap
        custom_id = tap.picker.custom_id(tap.op) if tap else "mmp:?"
        super().__init__(discord.ui.Button(label=label, emoji=emoji, style=style,
                                           disabled=disabled, row=row,
                                           custom_id=custom_id))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> PickerButton:
        return cls(read_tap(match["body"], MAX_ID), label="?")

    async def run(self, interaction: discord.Interaction) -> None:
        if self.tap is None:
            raise MalformedButton()
        from .flow import on_tap  # the flow draws these buttons: import it when clicked

        await on_tap(interaction, self.tap)


def open_button(picker: Picker, *, label: str, emoji: str | None = None,
                style: discord.ButtonStyle = discord.ButtonStyle.primary) -> PickerButton:
    """A board's button that opens a picker (``picker.owner`` 0: for whoever clicks)."""
    return PickerButton(Tap(picker, Op.OPEN), label=label, emoji=emoji, style=style)


class TypedCodeModal(ReportingModal):
    """The code typed instead of tapped (a keyboard, letters like RROY, pasted pegs), the
    pegs picked so far filled in: it goes through the same submit as the picker's button.
    Errors leave ``on_submit`` so that the form stays open for a corrected try."""

    def __init__(self, picker: Picker, title: str, label: str):
        super().__init__(title=title[:45], timeout=900)
        self.picker = picker
        rules = Rules(picker.pegs, picker.colors, repeats=picker.repeats)
        self.code: discord.ui.TextInput = discord.ui.TextInput(
            label=label[:45],
            placeholder=tr("e.g. {example} or letters, pegs", example=example(rules))[:100],
            min_length=1, max_length=100, custom_id="code", default=picker.digits or None)
        self.add_item(self.code)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        from .flow import submit

        await submit(interaction, self.picker, self.code.value)
