"""The application's own emoji, with Discord's rules (docs: resources/emoji, "Application-Owned
Emoji"), and the check that a message only uses custom emoji the application holds.

``GET/POST /applications/{app}/emojis`` (the list is ``{"items": [...]}``) and
``GET/PATCH/DELETE /applications/{app}/emojis/{id}``. A name is 2-32 characters of
``[A-Za-z0-9_]``, unique in the app; the image a data URI of a PNG, JPEG, GIF, WebP or AVIF
of at most 256 KiB; at most 2,000 emoji per app. Refusals and rate limits are injected with
``DiscordState.fail_next`` like any other fault.

Discord draws ``<:name:id>`` it can't resolve as ``:name:`` text, and refuses a component
whose emoji id it doesn't know ("Invalid emoji"): either way the fake fails the message.
Guild emoji are not modelled, so every custom emoji must be one the app holds.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .api import ApiRequest, ApiResponse, Reject, form_error
from .limits import FieldError
from .models import Snowflakes

MAX_APP_EMOJI = 2000
IMAGE_MAX_BYTES = 256 * 1024
NAME_MIN, NAME_MAX = 2, 32
_NAME = re.compile(r"[A-Za-z0-9_]+")
_DATA_URI = re.compile(r"data:image/(png|jpeg|jpg|gif|webp|avif);base64,(.+)", re.S)
#: Custom emoji as message text: ``<:name:id>``, animated ``<a:name:id>``.
CUSTOM_EMOJI_TEXT = re.compile(r"<(a?):(\w{2,32}):(\d{1,20})>")
#: Keys whose text Discord never draws (ids, links): not searched for emoji.
_NOT_SHOWN = frozenset({"custom_id", "url", "proxy_url", "id"})


def _image_kind(data: bytes) -> str | None:
    """What the bytes really are (the data URI's type is not trusted)."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data[4:12] in (b"ftypavif", b"ftypavis"):
        return "avif"
    return None


@dataclass
class AppEmoji:
    id: int
    name: str
    image: bytes  # the uploaded file, decoded
    kind: str  # png, jpeg, gif, webp, avif
    user: dict[str, Any]

    @property
    def animated(self) -> bool:
        return self.kind == "gif" and self.image.count(b"\x21\xf9\x04") > 1

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "name": self.name, "roles": [], "user": self.user,
                "require_colons": True, "managed": False, "animated": self.animated,
                "available": True}


class AppEmojiStore:
    """The app's emoji and their routes (wired into ``DiscordState``'s route table)."""

    def __init__(self, snowflake: Snowflakes, application_id: int,
                 uploader: Callable[[], dict[str, Any]]) -> None:
        self.snowflake = snowflake
        self.application_id = application_id
        self.uploader = uploader  # the bot user's payload: it uploads through the API
        self.emoji: dict[int, AppEmoji] = {}
        self.uploads = 0  # accepted POSTs, for tests and benchmarks
        self.deletions = 0

    # ------------------------------------------------------------------ for tests
    def add(self, name: str, image: bytes, kind: str = "png") -> AppEmoji:
        """An emoji the app already holds (uploaded earlier, or in the developer portal)."""
        emoji = AppEmoji(self.snowflake(), name, image, kind, self.uploader())
        self.emoji[emoji.id] = emoji
        return emoji

    def named(self, name: str) -> AppEmoji | None:
        return next((e for e in self.emoji.values() if e.name == name), None)

    def holds(self, emoji_id: int | str) -> bool:
        return str(emoji_id).isdigit() and int(emoji_id) in self.emoji

    # ------------------------------------------------------------------ routes
    def routes(self, sf: str) -> list[tuple[str, str, Callable[..., Any], bool]]:
        return [
            ("GET", rf"/applications/{sf}/emojis", self.list, True),
            ("POST", rf"/applications/{sf}/emojis", self.create, True),
            ("GET", rf"/applications/{sf}/emojis/{sf}", self.get, True),
            ("PATCH", rf"/applications/{sf}/emojis/{sf}", self.modify, True),
            ("DELETE", rf"/applications/{sf}/emojis/{sf}", self.delete, True),
        ]

    def _app(self, app_id: str) -> None:
        if int(app_id) != self.application_id:
            raise Reject(403, 50001, f"Missing Access (application {app_id} is not this bot)")

    def _one(self, app_id: str, emoji_id: str) -> AppEmoji:
        self._app(app_id)
        emoji = self.emoji.get(int(emoji_id))
        if emoji is None:
            raise Reject(404, 10014, "Unknown Emoji")
        return emoji

    def list(self, req: ApiRequest, app_id: str) -> ApiResponse:
        self._app(app_id)
        return ApiResponse(200, {"items": [e.payload() for e in self.emoji.values()]})

    def get(self, req: ApiRequest, app_id: str, emoji_id: str) -> ApiResponse:
        return ApiResponse(200, self._one(app_id, emoji_id).payload())

    def create(self, req: ApiRequest, app_id: str) -> ApiResponse:
        self._app(app_id)
        body = req.json if isinstance(req.json, dict) else {}
        errors = self._name_errors(body.get("name"))
        image, kind, image_errors = _decode_image(body.get("image"))
        errors += image_errors
        if errors:
            raise form_error(errors)
        if len(image) > IMAGE_MAX_BYTES:
            raise Reject(400, 50138,
                         f"Failed to resize asset below the maximum size: {IMAGE_MAX_BYTES}")
        if len(self.emoji) >= MAX_APP_EMOJI:
            raise Reject(400, 30008, f"Maximum number of emojis reached ({MAX_APP_EMOJI})")
        emoji = self.add(body["name"], image, kind)
        self.uploads += 1
        return ApiResponse(201, emoji.payload())

    def modify(self, req: ApiRequest, app_id: str, emoji_id: str) -> ApiResponse:
        emoji = self._one(app_id, emoji_id)
        body = req.json if isinstance(req.json, dict) else {}
        if "name" in body:
            errors = self._name_errors(body["name"], renaming=emoji)
            if errors:
                raise form_error(errors)
            emoji.name = body["name"]
        return ApiResponse(200, emoji.payload())

    def delete(self, req: ApiRequest, app_id: str, emoji_id: str) -> ApiResponse:
        emoji = self._one(app_id, emoji_id)
        del self.emoji[emoji.id]
        self.deletions += 1
        return ApiResponse(204)

    def _name_errors(self, name: Any, renaming: AppEmoji | None = None) -> list[FieldError]:
        if not isinstance(name, str) or not name:
            return [FieldError(("name",), "BASE_TYPE_REQUIRED", "This field is required")]
        if not NAME_MIN <= len(name) <= NAME_MAX:
            return [FieldError(("name",), "BASE_TYPE_BAD_LENGTH",
                               f"Must be between {NAME_MIN} and {NAME_MAX} in length.")]
        if not _NAME.fullmatch(name):
            return [FieldError(("name",), "STRING_TYPE_REGEX",
                               "String value did not match validation regex.")]
        taken = self.named(name)
        if taken is not None and taken is not renaming:
            return [FieldError(("name",), "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
                               f"An emoji named {name!r} already exists in this application.")]
        return []

    # ------------------------------------------------------------------ messages
    def unknown_references(self, data: Any, base: tuple[str | int, ...] = ()
                           ) -> list[FieldError]:
        """Every custom emoji in a message (text, embeds, components, options, modals) that
        this app doesn't hold."""
        errors: list[FieldError] = []
        self._walk(data, base, errors)
        return errors

    def _walk(self, node: Any, path: tuple[str | int, ...], errors: list[FieldError]) -> None:
        if isinstance(node, str):
            for m in CUSTOM_EMOJI_TEXT.finditer(node):
                if not self.holds(m[3]):
                    errors.append(FieldError(path, "UNKNOWN_CUSTOM_EMOJI", (
                        f"{m[0]} is no emoji of this application: Discord shows it as "
                        f":{m[2]}: text")))
        elif isinstance(node, list):
            for i, item in enumerate(node):
                self._walk(item, (*path, i), errors)
        elif isinstance(node, dict):
            emoji = node.get("emoji")
            if isinstance(emoji, dict) and emoji.get("id") is not None and not self.holds(
                    emoji["id"]):
                errors.append(FieldError((*path, "emoji", "id"), "COMPONENT_INVALID_EMOJI",
                                         "Invalid emoji"))
            for key, value in node.items():
                if key not in _NOT_SHOWN and key != "emoji":
                    self._walk(value, (*path, key), errors)


def _decode_image(value: Any) -> tuple[bytes, str, list[FieldError]]:
    """The image of a data URI, its real kind, and what is wrong with it."""
    if not isinstance(value, str) or not value:
        return b"", "", [FieldError(("image",), "BASE_TYPE_REQUIRED", "This field is required")]
    bad = [FieldError(("image",), "IMAGE_INVALID", "Invalid image data")]
    m = _DATA_URI.fullmatch(value)
    if m is None:
        return b"", "", bad
    try:
        data = base64.b64decode(m[2], validate=True)
    except (binascii.Error, ValueError):
        return b"", "", bad
    kind = _image_kind(data)
    return (data, kind, []) if kind else (b"", "", bad)
