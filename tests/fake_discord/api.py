"""A REST request and its answer as the fake sees them, and how a route refuses one: it
raises :class:`Reject`; ``DiscordState.handle`` answers with its status and body and records
it as a violation of Discord's rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .limits import FieldError, form_error_body


@dataclass
class ApiRequest:
    method: str
    path: str  # without the /api/v10 prefix, e.g. "/channels/1/messages"
    query: Mapping[str, str] = field(default_factory=dict)
    json: Any = None
    files: list[tuple[str, int]] = field(default_factory=list)  # (filename, size)
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass
class ApiResponse:
    status: int
    body: Any = None  # JSON-able, or None for an empty body

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


class Reject(Exception):  # internal control flow: becomes an error response
    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        details: Sequence[FieldError] = (),
        *,
        record: bool = True,
        body: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.details = list(details)
        self.record = record
        self.body = body


def form_error(errors: Sequence[FieldError]) -> Reject:
    """Discord's 400 ``Invalid Form Body`` (50035) naming each rejected field."""
    body = form_error_body(errors)
    return Reject(400, body["code"], body["message"], errors, body=body)
