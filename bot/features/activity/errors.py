"""The Activity's own refusals: each a code the client can act on, an HTTP status, and words
(:mod:`.words`, by the same code) in the reader's language."""

from __future__ import annotations


class ActivityError(Exception):
    """A request refused before or instead of a move: ``code`` names the words."""

    def __init__(self, code: str, status: int = 400, **values: object) -> None:
        super().__init__(code)
        self.code = code
        self.status = status
        self.values = values
