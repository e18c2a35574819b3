"""The picker's own mistakes (its words are in :mod:`.render`)."""

from __future__ import annotations

from ...core.errors import UserError


class NotYourPicker(UserError):
    """A tap on a picker drawn for someone else: Discord shows a picker only to its owner,
    so this is a forged or copied button."""

    def __init__(self) -> None:
        super().__init__("that picker belongs to someone else")
