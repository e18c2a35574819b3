"""A guess picked with taps (the picker feature's purpose ``g``; target: the game's id).

Opened from a board's **Guess** button by anyone who may guess; submitted as the same
one-transaction move as ``/guess``, only for the game it was opened for. A picker goes out
of date only when its game ends or another replaces it: in a channel game anyone may
guess at any moment, so a guess made while someone else guessed is still a guess (a code
already on the board is refused and costs nothing), as it is when typed.
"""

from __future__ import annotations

import re

import discord

from i18n import mark, tr

from ...core.enums import GameStatus
from ...core.records import GameRecord, GuessRecord
from ...ui.buttons import cog_of
from ...ui.pegs import code_line, key_pegs
from ..picker.flow import close, show
from ..picker.purposes import Purpose
from ..picker.state import Picker
from .buttons import GUESS_PURPOSE


def _cog(interaction: discord.Interaction):
    from .cog import BreakerCog  # the cog registers this purpose

    return cog_of(interaction, BreakerCog)


class GuessPurpose(Purpose):
    key = GUESS_PURPOSE
    target = re.compile(r"[1-9]\d{0,18}")
    title = mark("Your guess")
    verb = mark("Guess")
    form_title = mark("Type your guess")

    async def open(self, interaction: discord.Interaction, target: str) -> Picker:
        assert interaction.channel_id is not None  # a board's button, in its channel
        game = await _cog(interaction).service.picker_game(int(target), interaction.channel_id,
                                                           interaction.user.id)
        return Picker.for_rules(self.key, interaction.user.id, target, game.rules)

    async def heading(self, interaction: discord.Interaction, picker: Picker) -> str:
        return tr("**Your guess** · game #{id}", id=picker.target)

    async def submit(self, interaction: discord.Interaction, picker: Picker, text: str
                     ) -> None:
        cog = _cog(interaction)
        game = await cog.guess_for(interaction, text, game_id=int(picker.target))
        mine = game.guesses[-1]
        if game.active:
            await show(interaction, picker.cleared(), note=sent(mine))
        else:
            await close(interaction, ended(game, mine))
        await cog.after_guess(interaction, game)


def sent(guess: GuessRecord) -> str:
    """What the picker says once a guess is stored, above the next (empty) code."""
    return tr("Sent guess {turn}: {row}", turn=guess.turn,
              row=f"{code_line(guess.code)} {key_pegs(guess.feedback)}")


def ended(game: GameRecord, guess: GuessRecord) -> str:
    row = f"{code_line(guess.code)} {key_pegs(guess.feedback)}"
    if game.status is GameStatus.WON:
        return "\N{PARTY POPPER} " + tr("Guess {turn} {row} cracked the code!", turn=guess.turn,
                                        row=row)
    return tr("Guess {turn} {row}: that was the last guess. The board below shows the code.",
              turn=guess.turn, row=row)
