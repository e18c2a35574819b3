"""Slash-command options shared by features: rule sizes (ranges Discord enforces) and names."""

from __future__ import annotations

import discord
from discord import app_commands

from engine import CLASSIC, InvalidRules, Rules
from engine.rules import MAX_COLORS, MAX_GUESSES, MAX_PEGS, MIN_COLORS, MIN_GUESSES, MIN_PEGS

from ..core.enums import Which
from ..core.errors import BadRules

Pegs = app_commands.Range[int, MIN_PEGS, MAX_PEGS]
Colors = app_commands.Range[int, MIN_COLORS, MAX_COLORS]
MaxGuesses = app_commands.Range[int, MIN_GUESSES, MAX_GUESSES]
#: Longest code text accepted from Discord: 8 drawn pegs pasted from a board, each written
#: ``<:purple_1a2b3c:1234567890123456789>`` (38 characters), with spaces between. The pegs
#: become digits first (``pegs.typed_code``); the engine refuses anything over its own limit.
CodeText = app_commands.Range[str, 1, 400]

#: The ``game:`` option: which game a command means when the player has a private one too.
WHICH_DESCRIPTION = ("Your private game or the channel's (default: yours if you started it "
                     "here or the channel has none)")
WHICH_CHOICES = [app_commands.Choice(name="my private game", value=Which.PRIVATE.value),
                 app_commands.Choice(name="this channel's game", value=Which.CHANNEL.value)]
PRIVATE_DESCRIPTION = ("True: a game only you see and play, beside this channel's (in a DM "
                       "with me, every game is)")


def which(value: str | None) -> Which:
    return Which(value) if value else Which.AUTO


RULE_DESCRIPTIONS = {
    "pegs": f"Pegs in the code ({MIN_PEGS}-{MAX_PEGS}, default {CLASSIC.pegs})",
    "colors": f"Colours to choose from ({MIN_COLORS}-{MAX_COLORS}, default {CLASSIC.colors})",
    "max_guesses": (f"Guesses allowed ({MIN_GUESSES}-{MAX_GUESSES}, "
                    f"default {CLASSIC.max_guesses})"),
    "repeats": "May a colour appear more than once? (default yes)",
}


def make_rules(pegs: int, colors: int, max_guesses: int, repeats: bool) -> Rules:
    """Check the rules again in code: Discord enforces the ranges, the engine the rest."""
    try:
        return Rules(pegs, colors, max_guesses, repeats)
    except InvalidRules as exc:
        raise BadRules(str(exc)) from None


def display_name(user: discord.abc.User) -> str:
    """The name a player goes by here (server nickname, global name, then username)."""
    return getattr(user, "display_name", None) or user.name
