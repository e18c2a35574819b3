"""Refresh the command names' catalogs: ``.venv/bin/python tests/i18n_commands.py``.

Starts the bot against the fake Discord, takes the slash commands it syncs (their English
names, descriptions and choices), and runs ``python -m i18n.extract --commands`` on them, so
``i18n/templates/commands.pot`` and every locale's ``commands.po`` follow the code.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fake_discord import FakeClock, FakeDiscord  # noqa: E402

from bot.app import MastermindBot  # noqa: E402
from i18n import extract  # noqa: E402


async def synced_commands(database: Path) -> list[dict[str, Any]]:
    """The global commands payload a freshly started bot syncs."""
    fake = FakeDiscord(clock=FakeClock())
    try:
        bot = MastermindBot(database=database)
        await fake.login(bot)
        return json.loads(json.dumps(fake.commands))
    finally:
        await fake.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        commands = asyncio.run(synced_commands(Path(folder) / "bot.sqlite3"))
        payload = Path(folder) / "commands.json"
        payload.write_text(json.dumps(commands))
        extract.main(["--commands", str(payload)])


if __name__ == "__main__":
    main()
