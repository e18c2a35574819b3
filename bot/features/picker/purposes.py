"""What a picker is for: each feature that takes a code adds a :class:`Purpose`.

The picker draws the pegs and handles the taps; a purpose says what the code is for: it
checks who may open a picker and reads the rules (:meth:`Purpose.open`), heads it
(:meth:`Purpose.heading`) and stores the code (:meth:`Purpose.submit`), through the
feature's own service, so a submitted code is the same move as the typed command. A new
kind of game takes codes by registering one more purpose: nothing here changes.

Where the picker is drawn follows from the message pressed: a public board's button sends
a new private picker; a private board's (the daily, a private game) turns that board into
the picker, whose :meth:`Purpose.heading` can then show the board's rows above the code.
"""

from __future__ import annotations

import re
from typing import ClassVar

import discord

from i18n import mark, tr

from ...core.errors import MalformedButton
from .state import Picker


class Purpose:
    """One use of the picker; subclasses set the class attributes and implement
    :meth:`open` and :meth:`submit`."""

    #: The id's purpose field: 1-3 lowercase letters, unique among purposes.
    key: ClassVar[str]
    #: What a valid target looks like (anything else is a forged or outdated button).
    target: ClassVar[re.Pattern[str]] = re.compile(r"\d{1,20}")
    # The words below are English, marked for the feature's catalog (``mark("Your guess")``);
    # the picker translates them where it shows them, in the player's language.
    #: The heading's first words, e.g. "Your guess".
    title: ClassVar[str] = mark("Your code")
    #: The submit button's label, e.g. "Guess" (short: it shares a phone's row with two).
    verb: ClassVar[str] = mark("Submit")
    #: The typed form's title (at most 45 characters in every language).
    form_title: ClassVar[str] = mark("Type your code")

    async def open(self, interaction: discord.Interaction, target: str) -> Picker:
        """A new picker for the person who acted (checks they may, reads the rules);
        raises a :class:`~bot.core.errors.UserError` when they may not."""
        raise NotImplementedError

    async def heading(self, interaction: discord.Interaction, picker: Picker) -> str:
        """The lines above the pegs. Drawn on every tap, so quick: read nothing by default."""
        return f"**{tr(self.title)}**"

    async def submit(self, interaction: discord.Interaction, picker: Picker, text: str
                     ) -> None:
        """Store ``text`` (the picked digits, or what was typed in the form) in one
        transaction, with the interaction's id as the action's key, then answer: the
        picker first (:func:`~bot.features.picker.flow.show` or ``close``), then what
        the channel sees."""
        raise NotImplementedError


_PURPOSES: dict[str, Purpose] = {}


def register(purpose: Purpose) -> None:
    """Make a purpose's pickers work (again: registering the same key replaces it)."""
    if not re.fullmatch(r"[a-z]{1,3}", purpose.key):
        raise ValueError(f"a purpose key is 1-3 lowercase letters, not {purpose.key!r}")
    _PURPOSES[purpose.key] = purpose


def purpose_of(picker: Picker) -> Purpose:
    """The registered purpose of a picker whose target it can read, or MalformedButton."""
    purpose = _PURPOSES.get(picker.purpose)
    if purpose is None or not purpose.target.fullmatch(picker.target):
        raise MalformedButton()
    return purpose
