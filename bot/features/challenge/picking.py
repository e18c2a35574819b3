"""A challenger's code revealed with taps (the picker feature's purpose ``r``; target: the
challenge's id): opened by the board's **Reveal my code**, only by the challenger, while
the challenge runs. The revealed code ends the challenge, so it is shown to everyone then.
"""

from __future__ import annotations

import re

import discord

from i18n import mark, tr, trn

from ...core.records import GameRecord
from ...ui.buttons import cog_of
from ...ui.pegs import code_line
from ..picker.purposes import Purpose
from ..picker.state import Picker
from .service import ChallengeState

PURPOSE = "r"


def _cog(interaction: discord.Interaction):
    from .cog import ChallengeCog  # the cog registers this purpose

    return cog_of(interaction, ChallengeCog)


def reveal_picker(user_id: int, game: GameRecord) -> Picker:
    return Picker.for_rules(PURPOSE, user_id, str(game.id), game.rules)


class RevealPurpose(Purpose):
    key = PURPOSE
    target = re.compile(r"[1-9]\d{0,18}")
    title = mark("Reveal your code")
    verb = mark("Reveal")
    form_title = mark("Reveal your code")

    async def open(self, interaction: discord.Interaction, target: str) -> Picker:
        game = await _cog(interaction).service.load(int(target), interaction.user.id)
        return reveal_picker(interaction.user.id, game)

    async def heading(self, interaction: discord.Interaction, picker: Picker) -> str:
        return tr("**{title}** · challenge #{id}: I check every reply you gave against it, "
                  "and the challenge ends", title=tr(self.title), id=picker.target)

    async def submit(self, interaction: discord.Interaction, picker: Picker, text: str
                     ) -> None:
        await _cog(interaction).reveal(interaction, int(picker.target), text)


def revealed(state: ChallengeState) -> str:
    """Said to the challenger in place of their picker."""
    code = code_line(state.game.secret) if state.game.secret else "?"
    wrong = len(state.mistakes or ())
    if not wrong:
        return tr("You revealed {code}: every reply was right. The board below shows it all.",
                  code=code)
    return trn("You revealed {code}: {count} reply was wrong. The board below shows it all.",
               "You revealed {code}: {count} replies were wrong. The board below shows it all.",
               wrong, code=code)
