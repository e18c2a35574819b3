"""The button that opens the Activity, on the boards of the games it plays: there only when
the application has Activities on (its ``EMBEDDED`` flag, read at start), so elsewhere the
boards stay as they were. The Activity feature installs the button's maker; a board adds it
with :func:`add_to` and knows nothing else of the Activity."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import discord

_maker: Callable[[], discord.ui.Item[Any]] | None = None


def install(maker: Callable[[], discord.ui.Item[Any]] | None) -> None:
    """Boards carry ``maker()``'s button from now on (None: no button)."""
    global _maker
    _maker = maker


Holder = TypeVar("Holder", discord.ui.View, discord.ui.ActionRow)


def add_to(holder: Holder) -> Holder:
    """``holder`` (a board's view, or a Components V2 board's row) with the Activity's
    button, when there is one."""
    if _maker is not None:
        holder.add_item(_maker())
    return holder
