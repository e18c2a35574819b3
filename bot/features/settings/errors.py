"""The server settings' own mistakes; their words are in :mod:`.render`."""

from __future__ import annotations

from ...core.errors import UserError


class ChannelNotAllowed(UserError):
    """A game started in a channel the server's settings don't allow games in."""

    def __init__(self, allowed: tuple[int, ...]):
        super().__init__("games are not allowed in this channel")
        self.allowed = allowed


class BadSetting(UserError):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason
