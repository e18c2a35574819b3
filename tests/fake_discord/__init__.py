"""A fake Discord for testing discord.py bots without the network.

In-process (fast, for unit/integration tests)::

    fake = FakeDiscord()                      # or FakeDiscord(clock=FakeClock())
    bot = make_bot()                          # a real commands.Bot
    await fake.login(bot)                     # bot.login() + setup_hook against the fake
    await fake.sync(bot)                      # unless setup_hook already synced the tree
    alice = fake.user("alice")
    guild = fake.guild("Test")                # has #general
    res = await fake.slash(bot, "mastermind new", user=alice, guild=guild, pegs=5)
    board = res.message                       # the live FakeMessage (content/embeds/components)
    res2 = await fake.click(bot, board, "guess:1", user=alice)
    fake.check()                              # no unexpected bot errors, no rule violations

Loopback server (real HTTP + websocket gateway, for running ``python -m bot``)::

    async with FakeDiscordServer() as server:   # see fake_discord.server
        ...

Activities (``fake_discord.activities``): ``fake.enable_activities()`` (the ``EMBEDDED`` flag
and the Entry Point command), ``result.launch`` after a ``LAUNCH_ACTIVITY`` answer,
``fake.authorize(user)`` for an OAuth2 code, ``fake.activities.client_secret``,
``fake.start_activity(channel, *users)`` for an instance, ``fake.client_session()`` for code
that calls Discord outside discord.py.

``state.DiscordState`` is the shared core (state, Discord's rules, limit checks, routing).
"""

from .errors import (
    BotErrors,
    DiscordRuleViolations,
    FakeDiscordError,
    InteractionTimeout,
    InvalidInteraction,
    NoResponse,
)
from .harness import BotError, FakeClock, FakeDiscord, InteractionResult
from .limits import FieldError, check_message
from .models import FakeChannel, FakeGuild, FakeMember, FakeMessage, FakeRole, FakeUser
from .state import (
    ApiRequest,
    ApiResponse,
    CallbackRecord,
    DiscordState,
    InteractionRecord,
    Violation,
)

__all__ = [
    "ApiRequest",
    "ApiResponse",
    "BotError",
    "BotErrors",
    "CallbackRecord",
    "DiscordRuleViolations",
    "DiscordState",
    "FakeChannel",
    "FakeClock",
    "FakeDiscord",
    "FakeDiscordError",
    "FakeGuild",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "FieldError",
    "InteractionRecord",
    "InteractionResult",
    "InteractionTimeout",
    "InvalidInteraction",
    "NoResponse",
    "Violation",
    "check_message",
]
