"""Tap to play: a peg picker only its player sees, for a guess, a code to set or a reveal.

Features use it through :class:`Purpose` (what the code is for), :func:`register`, a
board's :func:`open_button`, and :func:`show` / :func:`close` to answer a submit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .buttons import open_button
from .flow import PickerCog, close, show
from .purposes import Purpose, register
from .state import Picker, open_id

if TYPE_CHECKING:
    from ...app import MastermindBot

__all__ = ["Picker", "Purpose", "close", "open_button", "open_id", "register", "show"]


async def setup(bot: MastermindBot) -> None:
    await bot.add_cog(PickerCog(bot))
