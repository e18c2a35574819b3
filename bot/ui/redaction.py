"""Secrets never reach the logs: the bot token and interaction tokens are masked in every
record, at every level (discord.py logs webhook URLs, which carry interaction tokens)."""

from __future__ import annotations

import logging
import re

#: ``/webhooks/<app>/<token>`` and ``/interactions/<id>/<token>/callback``.
_URL_TOKENS = re.compile(r"(/(?:webhooks|interactions)/\d+/)[A-Za-z0-9_\-.]{20,}")
#: ``'token': '...'`` in a logged payload.
_FIELD_TOKENS = re.compile(r"""(["']token["']\s*:\s*["'])[^"']+(["'])""")
MASK = "<redacted>"


class RedactTokens(logging.Filter):
    def __init__(self, *secrets: str):
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, MASK)
        text = _URL_TOKENS.sub(rf"\1{MASK}", text)
        return _FIELD_TOKENS.sub(rf"\1{MASK}\2", text)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = self.redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        return True


def redact_logs(*secrets: str) -> None:
    """Mask secrets in every handler of the root logger (set up by ``setup_logging``)."""
    redactor = RedactTokens(*secrets)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redactor)
