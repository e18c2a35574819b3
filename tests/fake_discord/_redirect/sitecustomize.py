"""Point discord.py at a fake Discord server when FAKE_DISCORD_API_BASE is set.

``FakeDiscordServer.env()`` puts this directory on PYTHONPATH, so Python imports this module at
start-up in the child process (``python -m bot``). Without the variables it does nothing.

discord.py's endpoints are patched as its modules are imported, not here: a child that never
imports discord.py (a bot that stops at a bad setting or database, ``copy-db``) costs what it
costs outside the tests (importing discord.py and aiohttp here took half a second of CPU).
"""

import importlib.abc
import os
import sys

_api = os.environ.get("FAKE_DISCORD_API_BASE")
_gateway = os.environ.get("FAKE_DISCORD_GATEWAY")


def _patch(module):
    if module.__name__ == "discord.http":
        module.Route.BASE = _api
    else:
        import yarl

        module.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(_gateway)


class _PatchOnImport(importlib.abc.MetaPathFinder):
    """Finds ``discord.http`` and ``discord.gateway`` as the other finders do, and patches
    each once its code has run."""

    names = ("discord.http", "discord.gateway")

    def find_spec(self, fullname, path, target=None):
        if fullname not in self.names:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None and spec.loader is not None:
                run = spec.loader.exec_module

                def exec_module(module, run=run):
                    run(module)
                    _patch(module)

                spec.loader.exec_module = exec_module
                return spec
        return None


if _api and _gateway:
    sys.meta_path.insert(0, _PatchOnImport())
