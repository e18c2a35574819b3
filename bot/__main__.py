"""``python -m bot`` / ``mastermind-bot``: run the Discord bot until SIGINT or SIGTERM;
``mastermind-bot --check`` checks its configuration without Discord (see :mod:`bot.check`);
``mastermind-bot copy-db FROM TO`` copies its database (see :mod:`bot.copy_db`)."""

from __future__ import annotations

import sys


def main() -> int:
    if sys.argv[1:2] == ["copy-db"]:  # mastermind-bot copy-db FROM TO: no Discord, no token
        from .copy_db import main as copy_db
        return copy_db(sys.argv[2:])
    if sys.argv[1:] == ["--check"]:  # the configuration checked, without Discord
        from .check import main as check
        return check()
    from .start import start  # the settings and database checked, then discord.py
    return start()


if __name__ == "__main__":
    sys.exit(main())
