"""Optional pytest fixtures. Enable with ``pytest_plugins = ["fake_discord.pytest_plugin"]`` in
the top-level conftest (or ``-p fake_discord.pytest_plugin``).

``fake_discord`` yields a :class:`FakeDiscord` (using the ``fake_clock`` :class:`FakeClock`, so
the 3 s rule only trips when a test advances it, plus ``fake_discord_options``). At teardown it
closes every bot it logged in and fails the test if the bot raised or logged exceptions that
were not claimed with ``fake.expect_error(...)``, broke one of Discord's rules (claim with
``fake.expect_violation(code)``), or left a "thinking..." defer unanswered.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from .harness import FakeClock, FakeDiscord


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def fake_discord_options() -> dict[str, Any]:
    """Extra ``FakeDiscord(...)`` keyword arguments; override in a conftest, e.g.::

    @pytest.fixture
    def fake_discord_options():
        # errors the bot raises on purpose and answers with a friendly reply
        return {"ignore_errors": (app_commands.CheckFailure, UserError),
                "error_loggers": ("discord", "bot")}
    """
    return {}


@pytest.fixture
async def fake_discord(
    fake_clock: FakeClock, fake_discord_options: dict[str, Any]
) -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord(**{"clock": fake_clock, **fake_discord_options})
    try:
        yield fake
    finally:
        await fake.close()
    fake.check()
