"""Exceptions the fake raises into the *test* (never into the bot)."""

from __future__ import annotations


class FakeDiscordError(AssertionError):
    """Base class: a test-level failure detected by the fake Discord."""


class InvalidInteraction(FakeDiscordError):
    """The test asked for an interaction Discord's client would never send.

    Examples: unknown command or subcommand, a missing required option, a value of the wrong
    type, out of ``min_value``/``max_value``, longer than ``max_length``, not among the declared
    choices, a click on a disabled or missing button, a command the user can't see.
    """


class NoResponse(FakeDiscordError):
    """The bot never acknowledged the interaction ("The application did not respond")."""


class InteractionTimeout(FakeDiscordError):
    """The bot's handler for an interaction was still running when the wait timed out."""


class BotErrors(FakeDiscordError):
    """The bot raised or logged exceptions that the test did not expect."""


class DiscordRuleViolations(FakeDiscordError):
    """The bot made requests Discord would have rejected (limits, 40060, 10062, ...)."""
