"""The daily guessed with taps (the picker feature's purpose ``d``; target: the day).

The player's private board carries **Guess**; pressing it turns that board into the
picker, with the rows so far above the code being picked. Each submit is the same move as
``/daily play guess:``; the picker stays until the play ends, when it turns back into the
finished board. A picker from before midnight UTC is told its day is over.
"""

from __future__ import annotations

import re

import discord

from i18n import mark, tr
from i18n.numbers import day as show_day

from ...ui import launch
from ...ui.buttons import cog_of
from ...ui.messages import says
from ...ui.pegs import feedback_row
from ..picker.buttons import open_button
from ..picker.flow import close, show
from ..picker.purposes import Purpose
from ..picker.state import Picker
from .errors import DailyOver
from .service import DAILY_RULES

PURPOSE = "d"


def _cog(interaction: discord.Interaction):
    from .cog import DailyCog  # the cog registers this purpose

    return cog_of(interaction, DailyCog)


def guess_view(day: str, user_id: int) -> discord.ui.View:
    """The private board's Guess button (its player's: nobody else sees the board)."""
    view = discord.ui.View(timeout=None)
    view.add_item(open_button(Picker(PURPOSE, user_id, day), label=tr("Guess"),
                              emoji="\N{DIRECT HIT}"))
    return launch.add_to(view)


class DailyPurpose(Purpose):
    key = PURPOSE
    target = re.compile(r"\d{4}-\d{2}-\d{2}")
    title = mark("Your guess")
    verb = mark("Guess")
    form_title = mark("Type your guess")

    async def open(self, interaction: discord.Interaction, target: str) -> Picker:
        await _cog(interaction).service.check_open(target, interaction.user.id)
        return Picker.for_rules(self.key, interaction.user.id, target, DAILY_RULES)

    async def heading(self, interaction: discord.Interaction, picker: Picker) -> str:
        """The board so far (read on each tap: the picker is the board)."""
        play = await _cog(interaction).service.play(picker.target, interaction.user.id)
        guesses = play.guesses if play is not None else ()
        rows = [feedback_row(g.turn, g.code, g.feedback, DAILY_RULES) for g in guesses]
        left = DAILY_RULES.max_guesses - len(guesses)
        return "\n".join([
            tr("**Daily {day}** · only you see this board", day=show_day(picker.target)), *rows,
            tr("**{title}** · {left} of {total} left", title=tr("Your guess"), left=left,
               total=DAILY_RULES.max_guesses)])

    async def submit(self, interaction: discord.Interaction, picker: Picker, text: str
                     ) -> None:
        cog = _cog(interaction)
        play = await cog.guess_for(interaction, text, day=picker.target)
        if not play.finished:
            await show(interaction, picker.cleared())
            return
        embed, view = await cog.board(interaction, picker.target, play)
        await close(interaction, None, embeds=[embed], view=view)


@says(DailyOver)
def _over(error: DailyOver) -> tuple[str, str]:
    return tr("That daily is over"), tr(
        "The daily of {day} ended at midnight UTC, so nothing was stored. Today's code is "
        "new: `/daily play`.", day=show_day(error.day))
