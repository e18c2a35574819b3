"""Slash-command options shared by cogs: rule sizes (ranges Discord enforces) and names."""

from __future__ import annotations

import discord
from discord import app_commands

from engine import InvalidRules, Rules
from engine.rules import MAX_COLORS, MAX_GUESSES, MAX_PEGS, MIN_COLORS, MIN_GUESSES, MIN_PEGS

from ..errors import BadInput

Pegs = app_commands.Range[int, MIN_PEGS, MAX_PEGS]
Colors = app_commands.Range[int, MIN_COLORS, MAX_COLORS]
MaxGuesses = app_commands.Range[int, MIN_GUESSES, MAX_GUESSES]

RULE_DESCRIPTIONS = {
    "pegs": f"Pegs in the code ({MIN_PEGS}-{MAX_PEGS}, default 4)",
    "colors": f"Colours to choose from ({MIN_COLORS}-{MAX_COLORS}, default 6)",
    "max_guesses": f"Guesses allowed ({MIN_GUESSES}-{MAX_GUESSES}, default 10)",
    "repeats": "May a colour appear more than once? (default yes)",
}


def make_rules(pegs: int, colors: int, max_guesses: int, repeats: bool) -> Rules:
    """Check the rules again in code: Discord enforces the ranges, the engine the rest."""
    try:
        return Rules(pegs, colors, max_guesses, repeats)
    except InvalidRules as exc:
        raise BadInput(f"{exc}.", title="Those rules don't work") from None


def display_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name
