"""A puzzle answered with taps (the picker feature's purpose ``z``; target: the play's id).

The puzzle's private board carries **Answer**; pressing it turns that board into the
picker, with the clues above the code being picked. The submit is the same one try as
``/puzzle answer``; the picker then turns back into the board, with how the try went.
"""

from __future__ import annotations

import re

import discord

from i18n import mark, tr

from ...core.records import PuzzlePlay
from ...ui.buttons import cog_of
from ..picker.buttons import open_button
from ..picker.flow import close
from ..picker.purposes import Purpose
from ..picker.state import Picker
from .render import clue_rows, puzzle_title

PURPOSE = "z"


def _cog(interaction: discord.Interaction):
    from .cog import PuzzleCog  # the cog registers this purpose

    return cog_of(interaction, PuzzleCog)


def answer_button(play: PuzzlePlay) -> discord.ui.Item:
    """The board's Answer: a picker for its player (nobody else sees the board)."""
    return open_button(Picker.for_rules(PURPOSE, play.user_id, str(play.id), play.rules),
                       label=tr("Answer"), emoji="\N{DIRECT HIT}")


class AnswerPurpose(Purpose):
    key = PURPOSE
    target = re.compile(r"[1-9]\d{0,18}")
    title = mark("Your answer: one try")
    verb = mark("Answer")
    form_title = mark("Name the code")

    async def open(self, interaction: discord.Interaction, target: str) -> Picker:
        play = await _cog(interaction).service.open_play(int(target), interaction.user.id)
        return Picker.for_rules(self.key, interaction.user.id, target, play.rules)

    async def heading(self, interaction: discord.Interaction, picker: Picker) -> str:
        """The clues (read on each tap: the picker is the board)."""
        play = await _cog(interaction).service.get(int(picker.target), interaction.user.id)
        return "\n".join([f"**{puzzle_title(play)}**", clue_rows(play),
                          "**" + tr("Your answer: one try") + "**"])

    async def submit(self, interaction: discord.Interaction, picker: Picker, text: str
                     ) -> None:
        cog = _cog(interaction)
        play = await cog.service.answer(play_id=int(picker.target), user_id=interaction.user.id,
                                        text=text, action_id=interaction.id)
        embed, view = await cog.board(play)
        await close(interaction, None, embeds=[embed], view=view)
