"""Slash-command options shared by features: the rule options (ranges Discord enforces),
strategies, which game, and names."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, fields
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.utils import resolve_annotation

from engine import CLASSIC, STRATEGIES, InvalidRules, Rules, strongest_strategy
from engine.rules import MAX_COLORS, MAX_GUESSES, MAX_PEGS, MIN_COLORS, MIN_GUESSES, MIN_PEGS

from ..core.enums import Which
from ..core.errors import BadRules, UnknownStrategy

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


@dataclass(frozen=True)
class RuleOptions:
    """The rule options a player gave a command that starts a game (None: left out)."""

    pegs: int | None = None
    colors: int | None = None
    max_guesses: int | None = None
    repeats: bool | None = None

    def over(self, default: Rules) -> Rules:
        """The rules: the options given, ``default``'s for the rest, checked."""
        return make_rules(self.pegs or default.pegs, self.colors or default.colors,
                          self.max_guesses or default.max_guesses,
                          default.repeats if self.repeats is None else self.repeats)


#: No rule option given: the default's rules (the default of an ``asked`` parameter).
NO_RULE_OPTIONS = RuleOptions()
#: Each rule option as Discord is told of it: its type and range.
_RULE_TYPES: dict[str, Any] = {"pegs": Pegs, "colors": Colors, "max_guesses": MaxGuesses,
                               "repeats": bool}
assert list(_RULE_TYPES) == [f.name for f in fields(RuleOptions)] == list(RULE_DESCRIPTIONS)

CallbackT = TypeVar("CallbackT", bound=Callable[..., Coroutine[Any, Any, Any]])


def with_rule_options(callback: CallbackT) -> CallbackT:
    """One set of rule options for every command that starts a game (``/mastermind new``,
    ``/challenge``, ``/match``): Discord is shown ``pegs``, ``colors``, ``max_guesses`` and
    ``repeats`` (their ranges and descriptions) in place of the callback's ``asked:
    RuleOptions`` parameter, and the callback gets them as that one value. Goes under
    ``@app_commands.command``."""
    signature = inspect.signature(callback)
    module = getattr(inspect.getmodule(callback), "__dict__", {})
    cache: dict[str, Any] = {}
    # discord.py reads a callback's annotations in the module the callback comes from:
    # this one's, so the callback's own are read here, in its module.
    own = [p.replace(annotation=resolve_annotation(p.annotation, module, module, cache))
           if p.annotation is not p.empty else p for p in signature.parameters.values()]
    at = [p.name for p in own].index("asked")
    offered = [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None,
                                 annotation=kind | None)
               for name, kind in _RULE_TYPES.items()]

    @functools.wraps(callback)
    async def given_rules(*args: Any, **options: Any) -> Any:
        asked = RuleOptions(**{name: options.pop(name, None) for name in _RULE_TYPES})
        return await callback(*args, asked=asked, **options)

    given_rules.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[*own[:at], *offered, *own[at + 1:]])
    described = getattr(callback, "__discord_app_commands_param_description__", {})
    given_rules.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        **RULE_DESCRIPTIONS, **described}
    return given_rules  # type: ignore[return-value]


#: The ``strategy`` option's choices, where the bot breaks a code (``/challenge``, ``/match``).
STRATEGY_CHOICES = [
    app_commands.Choice(name=f"{s.name}: {s.description}"[:100], value=s.name)
    for s in STRATEGIES.values()
]


def chosen_strategy(strategy: str | None, rules: Rules) -> str:
    """The strategy asked for (checked: Discord's choices can be bypassed), or the strongest
    for these rules."""
    strategy = strategy or strongest_strategy(rules)
    if strategy not in STRATEGIES:
        raise UnknownStrategy(strategy)
    return strategy


def display_name(user: discord.abc.User) -> str:
    """The name a player goes by here (server nickname, global name, then username)."""
    return getattr(user, "display_name", None) or user.name
