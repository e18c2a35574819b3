"""Secret codes set with taps (the picker feature's purposes): ``s`` for a channel game
(``/mastermind new setter:me``; target: the guess limit, the rest of the rules ride in the
picker) and ``m`` for a match's half-round (target: ``<match>.<half>``).

The code is picked on a message only its setter sees, and said back only there; what the
channel sees (the new board) never shows it.
"""

from __future__ import annotations

import re

import discord

from engine import Code, InvalidRules, Rules
from i18n import mark, tr

from ...core.errors import MalformedButton
from ...ui.buttons import cog_of
from ...ui.pegs import code_line
from ..picker.purposes import Purpose
from ..picker.state import Picker

SETTER_GAME = "s"
MATCH_CODE = "m"


def _cog(interaction: discord.Interaction):
    from .cog import MatchCog  # the cog registers these purposes

    return cog_of(interaction, MatchCog)


def setter_picker(user_id: int, rules: Rules) -> Picker:
    return Picker.for_rules(SETTER_GAME, user_id, str(rules.max_guesses), rules)


def match_picker(user_id: int, match_id: int, half: int, rules: Rules) -> Picker:
    return Picker.for_rules(MATCH_CODE, user_id, f"{match_id}.{half}", rules)


class _SecretCode(Purpose):
    title = mark("Your secret code")
    verb = mark("Set code")
    form_title = mark("Type your secret code")

    async def open(self, interaction: discord.Interaction, target: str) -> Picker:
        raise MalformedButton()  # no board opens these: a command or a match button does


class SetterGamePurpose(_SecretCode):
    key = SETTER_GAME
    target = re.compile(r"\d{1,2}")

    async def heading(self, interaction: discord.Interaction, picker: Picker) -> str:
        return tr("**{title}** for a game of {pegs} pegs, {colors} colours: only you see it, "
                  "the others break it", title=tr(self.title), pegs=picker.pegs,
                  colors=picker.colors)

    async def submit(self, interaction: discord.Interaction, picker: Picker, text: str
                     ) -> None:
        try:
            rules = Rules(picker.pegs, picker.colors, int(picker.target), picker.repeats)
        except InvalidRules:
            raise MalformedButton() from None  # rules no game has: a forged button
        await _cog(interaction).start_setter_game(interaction, rules, text)


class MatchCodePurpose(_SecretCode):
    key = MATCH_CODE
    target = re.compile(r"[1-9]\d{0,18}\.\d{1,2}")

    async def heading(self, interaction: discord.Interaction, picker: Picker) -> str:
        match_id, _ = picker.target.split(".")
        return tr("**{title}** for match #{id}: only you see it", title=tr(self.title),
                  id=match_id)

    async def submit(self, interaction: discord.Interaction, picker: Picker, text: str
                     ) -> None:
        match_id, half = (int(part) for part in picker.target.split("."))
        await _cog(interaction).set_code(interaction, match_id, half, text)


def code_set(code: Code) -> str:
    """Said to the setter alone, in place of their picker."""
    return tr("Your secret code {code} is set. Nobody else has seen it: the board below is "
              "for the breakers.", code=code_line(code))
