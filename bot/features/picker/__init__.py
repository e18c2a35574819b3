"""Tap to play: a peg picker only its player sees, for a guess, a code to set or a reveal.

Features use it through :class:`~.purposes.Purpose` (what the code is for) and
:func:`~.purposes.register`, a board's :func:`~.buttons.open_button`, and
:func:`~.flow.show` / :func:`~.flow.close` to answer a submit."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...app import MastermindBot


async def setup(bot: MastermindBot) -> None:
    from .cog import PickerCog  # here: see FEATURES in bot/app.py

    await bot.add_cog(PickerCog(bot))
