"""Discord's message, embed, component and modal limits, checked the way Discord checks them.

Every checker returns a list of :class:`FieldError`; an empty list means Discord would accept
the payload. :func:`form_error_body` turns the list into the JSON body Discord answers with
(``{"code": 50035, "message": "Invalid Form Body", "errors": {...}}``), which discord.py turns
into a readable :class:`discord.HTTPException`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_NAME_MAX = 256
EMBED_TOTAL_MAX = 6000
ACTION_ROWS_MAX = 5
BUTTONS_PER_ROW_MAX = 5
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
SELECT_OPTIONS_MAX = 25
SELECT_OPTION_TEXT_MAX = 100
SELECT_PLACEHOLDER_MAX = 150
SELECT_VALUES_MAX = 25
MODAL_TITLE_MAX = 45
MODAL_ROWS_MAX = 5
TEXT_INPUT_LABEL_MAX = 45
TEXT_INPUT_VALUE_MAX = 4000
V2_COMPONENTS_TOTAL_MAX = 40
V2_TEXT_TOTAL_MAX = 4000
#: Follow-up messages per interaction where only the user's install authorizes the app (the
#: bot is not in that server or group DM); the next one gets 400, code 40094.
USER_INSTALL_FOLLOWUPS_MAX = 5

V2_LEGACY = "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"

FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_COMPONENTS_V2 = 1 << 15

BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
AUTO_SELECTS = {5, 6, 7, 8}  # user, role, mentionable, channel selects
ACTION_ROW = 1
LINK_STYLE = 5
PREMIUM_STYLE = 6


@dataclass(frozen=True)
class FieldError:
    """One rejected field: ``path`` is the JSON path, e.g. ``("embeds", 0, "description")``."""

    path: tuple[str | int, ...]
    code: str
    message: str

    def __str__(self) -> str:
        where = ".".join(str(p) for p in self.path) or "<body>"
        return f"{where}: {self.message} ({self.code})"


def _too_long(path: tuple[str | int, ...], value: Any, limit: int) -> list[FieldError]:
    if isinstance(value, str) and len(value) > limit:
        return [FieldError(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")]
    return []


def _bad_count(path: tuple[str | int, ...], count: int, lo: int, hi: int) -> list[FieldError]:
    if not lo <= count <= hi:
        return [
            FieldError(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {lo} and {hi} in length.")
        ]
    return []


def embed_size(embed: dict[str, Any]) -> int:
    """Characters Discord counts towards the 6000 total for one embed."""
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    for field in embed.get("fields") or []:
        total += len(field.get("name") or "") + len(field.get("value") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    return total


def check_embeds(embeds: Any, base: tuple[str | int, ...] = ("embeds",)) -> list[FieldError]:
    errors: list[FieldError] = []
    if not isinstance(embeds, list):
        return [FieldError(base, "BASE_TYPE_ARRAY", "Must be an array.")]
    if len(embeds) > EMBEDS_MAX:
        errors += _bad_count(base, len(embeds), 0, EMBEDS_MAX)
    total = 0
    for i, embed in enumerate(embeds):
        p = (*base, i)
        if not isinstance(embed, dict):
            errors.append(FieldError(p, "MODEL_TYPE_CONVERT", "Only dictionaries may be used."))
            continue
        errors += _too_long((*p, "title"), embed.get("title"), EMBED_TITLE_MAX)
        errors += _too_long((*p, "description"), embed.get("description"), EMBED_DESCRIPTION_MAX)
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS_MAX:
            errors += _bad_count((*p, "fields"), len(fields), 0, EMBED_FIELDS_MAX)
        for j, field in enumerate(fields):
            fp = (*p, "fields", j)
            for key, limit in (("name", EMBED_FIELD_NAME_MAX), ("value", EMBED_FIELD_VALUE_MAX)):
                value = field.get(key)
                if value is None or value == "":
                    errors.append(
                        FieldError((*fp, key), "BASE_TYPE_REQUIRED", "This field is required")
                    )
                errors += _too_long((*fp, key), value, limit)
        errors += _too_long(
            (*p, "footer", "text"), (embed.get("footer") or {}).get("text"), EMBED_FOOTER_MAX
        )
        errors += _too_long(
            (*p, "author", "name"), (embed.get("author") or {}).get("name"), EMBED_AUTHOR_NAME_MAX
        )
        total += embed_size(embed)
    if total > EMBED_TOTAL_MAX:
        errors.append(
            FieldError(
                base,
                "MAX_EMBED_SIZE_EXCEEDED",
                f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX} (got {total})",
            )
        )
    return errors


def walk_components(components: Sequence[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, depth first (rows, containers, sections and accessories included)."""
    for comp in components or []:
        if not isinstance(comp, dict):
            continue
        yield comp
        yield from walk_components(comp.get("components") or [])
        accessory = comp.get("accessory")
        if isinstance(accessory, dict):
            yield accessory
        inner = comp.get("component")  # label component in modals
        if isinstance(inner, dict):
            yield inner


def _required(path: tuple[str | int, ...]) -> FieldError:
    return FieldError(path, "BASE_TYPE_REQUIRED", "This field is required")


def _check_button(p: tuple[str | int, ...], comp: dict[str, Any]) -> list[FieldError]:
    errors: list[FieldError] = []
    style = comp.get("style")
    if style not in (1, 2, 3, 4, LINK_STYLE, PREMIUM_STYLE):
        errors.append(
            FieldError(
                (*p, "style"),
                "BASE_TYPE_CHOICES",
                f"Value must be one of (1, 2, 3, 4, 5, 6), got {style!r}.",
            )
        )
    if style == LINK_STYLE:
        if not comp.get("url"):
            errors.append(_required((*p, "url")))
        if comp.get("custom_id"):
            errors.append(
                FieldError(
                    (*p, "custom_id"),
                    "BUTTON_LINK_CUSTOM_ID",
                    "A link button cannot have a custom_id.",
                )
            )
    elif style == PREMIUM_STYLE:
        if not comp.get("sku_id"):
            errors.append(_required((*p, "sku_id")))
    else:
        if not comp.get("custom_id"):
            errors.append(_required((*p, "custom_id")))
        if not comp.get("label") and not comp.get("emoji"):
            errors.append(
                FieldError(
                    (*p, "label"),
                    "BUTTON_LABEL_OR_EMOJI_REQUIRED",
                    "A button needs a label or an emoji.",
                )
            )
    errors += _too_long((*p, "label"), comp.get("label"), BUTTON_LABEL_MAX)
    return errors


def _check_select(p: tuple[str | int, ...], comp: dict[str, Any]) -> list[FieldError]:
    errors: list[FieldError] = []
    errors += _too_long((*p, "placeholder"), comp.get("placeholder"), SELECT_PLACEHOLDER_MAX)
    lo = comp.get("min_values", 1)
    hi = comp.get("max_values", 1)
    if not 0 <= lo <= SELECT_VALUES_MAX:
        errors.append(
            FieldError(
                (*p, "min_values"),
                "NUMBER_TYPE_MAX",
                f"min_values must be between 0 and {SELECT_VALUES_MAX}.",
            )
        )
    if not 1 <= hi <= SELECT_VALUES_MAX:
        errors.append(
            FieldError(
                (*p, "max_values"),
                "NUMBER_TYPE_MAX",
                f"max_values must be between 1 and {SELECT_VALUES_MAX}.",
            )
        )
    if comp.get("type") == STRING_SELECT:
        options = comp.get("options") or []
        errors += _bad_count((*p, "options"), len(options), 1, SELECT_OPTIONS_MAX)
        if isinstance(lo, int) and lo > len(options):
            errors.append(
                FieldError(
                    (*p, "min_values"),
                    "SELECT_COMPONENT_MIN_VALUES",
                    "min_values must not exceed the number of options.",
                )
            )
        seen: set[str] = set()
        for k, opt in enumerate(options):
            op = (*p, "options", k)
            for key in ("label", "value", "description"):
                errors += _too_long((*op, key), opt.get(key), SELECT_OPTION_TEXT_MAX)
            if opt.get("value") in seen:
                errors.append(
                    FieldError(
                        (*op, "value"),
                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        "Select option values must be unique.",
                    )
                )
            seen.add(opt.get("value"))
    return errors


def check_components(
    components: Any, *, v2: bool = False, base: tuple[str | int, ...] = ("components",)
) -> list[FieldError]:
    """Message components: classic action-row layout, or the Components V2 layout."""
    if not isinstance(components, list):
        return [FieldError(base, "BASE_TYPE_ARRAY", "Must be an array.")]
    errors: list[FieldError] = []
    if not v2:
        errors += _bad_count(base, len(components), 0, ACTION_ROWS_MAX) if components else []
        for i, row in enumerate(components):
            p = (*base, i)
            if row.get("type") != ACTION_ROW:
                errors.append(
                    FieldError(
                        (*p, "type"),
                        "UNION_TYPE_CHOICES",
                        "Top-level components must be action rows (type 1).",
                    )
                )
                continue
            children = row.get("components") or []
            errors += _bad_count((*p, "components"), len(children), 1, BUTTONS_PER_ROW_MAX)
            kinds = {c.get("type") for c in children}
            selects = [c for c in children if c.get("type") in {STRING_SELECT, *AUTO_SELECTS}]
            if selects and (len(children) > 1 or len(kinds) > 1):
                errors.append(
                    FieldError(
                        (*p, "components"),
                        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                        "The specified component exceeds the maximum width",
                    )
                )
            for j, comp in enumerate(children):
                errors += _check_leaf((*p, "components", j), comp)
    else:
        total = 0
        text_total = 0
        for comp in walk_components(components):
            total += 1
            if comp.get("type") == 10:  # text display
                text_total += len(comp.get("content") or "")
        if total > V2_COMPONENTS_TOTAL_MAX:
            errors.append(
                FieldError(
                    base,
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be {V2_COMPONENTS_TOTAL_MAX} or fewer components "
                    f"in total (got {total}).",
                )
            )
        if text_total > V2_TEXT_TOTAL_MAX:
            errors.append(
                FieldError(
                    base,
                    "MAX_TEXT_DISPLAY_SIZE_EXCEEDED",
                    f"Text display content must be {V2_TEXT_TOTAL_MAX} or fewer "
                    f"in total (got {text_total}).",
                )
            )
        for k, comp in enumerate(walk_components(components)):
            if comp.get("type") in {BUTTON, STRING_SELECT, *AUTO_SELECTS}:
                errors += _check_leaf((*base, f"<component {k}>"), comp)
    errors += _duplicate_ids(components, base)
    return errors


def _check_leaf(p: tuple[str | int, ...], comp: dict[str, Any]) -> list[FieldError]:
    errors = _too_long((*p, "custom_id"), comp.get("custom_id"), CUSTOM_ID_MAX)
    kind = comp.get("type")
    if kind == BUTTON:
        errors += _check_button(p, comp)
    elif kind in {STRING_SELECT, *AUTO_SELECTS}:
        errors += _check_select(p, comp)
    else:
        errors.append(
            FieldError(
                (*p, "type"), "UNION_TYPE_CHOICES", f"Component type {kind!r} is not allowed here."
            )
        )
    return errors


def _duplicate_ids(
    components: Sequence[dict[str, Any]], base: tuple[str | int, ...]
) -> list[FieldError]:
    seen: set[str] = set()
    errors: list[FieldError] = []
    for comp in walk_components(components):
        cid = comp.get("custom_id")
        if cid is None:
            continue
        if cid in seen:
            errors.append(
                FieldError(
                    base,
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    f"Component custom id cannot be duplicated ({cid!r})",
                )
            )
        seen.add(cid)
    return errors


def check_message(
    data: dict[str, Any],
    *,
    creating: bool,
    has_files: bool = False,
    base: tuple[str | int, ...] = (),
) -> list[FieldError]:
    """Check a message create/edit body (channel message, webhook, interaction response data).

    ``creating`` enables the "Cannot send an empty message" rule, which edits are exempt from.
    """
    errors: list[FieldError] = []
    flags = data.get("flags") or 0
    v2 = bool(flags & FLAG_COMPONENTS_V2)
    content = data.get("content")
    if content is not None and not isinstance(content, str):
        errors.append(FieldError((*base, "content"), "BASE_TYPE_STRING", "Must be a string."))
    errors += _too_long((*base, "content"), content, CONTENT_MAX)
    embeds = data.get("embeds")
    if embeds is not None:
        errors += check_embeds(embeds, (*base, "embeds"))
    components = data.get("components")
    if components is not None:
        errors += check_components(components, v2=v2, base=(*base, "components"))
    if v2:
        if content:
            errors.append(
                FieldError(
                    (*base, "content"),
                    V2_LEGACY,
                    "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
                )
            )
        if embeds:
            errors.append(
                FieldError(
                    (*base, "embeds"),
                    V2_LEGACY,
                    "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
                )
            )
    if creating and not errors and is_empty_message(data, has_files=has_files):
        errors.append(FieldError(base, "EMPTY_MESSAGE", "Cannot send an empty message"))
    return errors


def is_empty_message(data: dict[str, Any], *, has_files: bool = False) -> bool:
    return not (
        (data.get("content") or "").strip()
        or data.get("embeds")
        or data.get("components")
        or data.get("attachments")
        or data.get("sticker_ids")
        or data.get("poll")
        or has_files
    )


def check_modal(data: dict[str, Any], base: tuple[str | int, ...] = ("data",)) -> list[FieldError]:
    errors: list[FieldError] = []
    for key in ("title", "custom_id"):
        if not data.get(key):
            errors.append(FieldError((*base, key), "BASE_TYPE_REQUIRED", "This field is required"))
    errors += _too_long((*base, "title"), data.get("title"), MODAL_TITLE_MAX)
    errors += _too_long((*base, "custom_id"), data.get("custom_id"), CUSTOM_ID_MAX)
    rows = data.get("components") or []
    errors += _bad_count((*base, "components"), len(rows), 1, MODAL_ROWS_MAX)
    for comp in walk_components(rows):
        if comp.get("type") == TEXT_INPUT:
            errors += _too_long(
                (*base, "components", "custom_id"), comp.get("custom_id"), CUSTOM_ID_MAX
            )
            errors += _too_long(
                (*base, "components", "label"), comp.get("label"), TEXT_INPUT_LABEL_MAX
            )
            errors += _too_long(
                (*base, "components", "value"), comp.get("value"), TEXT_INPUT_VALUE_MAX
            )
    return errors


def nest_errors(errors: Sequence[FieldError]) -> dict[str, Any]:
    """Discord's nested ``errors`` object: ``{"embeds": {"0": {"title": {"_errors": [...]}}}}``."""
    root: dict[str, Any] = {}
    for err in errors:
        node = root
        for part in err.path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": err.code, "message": err.message})
    return root


def form_error_body(errors: Sequence[FieldError]) -> dict[str, Any]:
    if len(errors) == 1 and errors[0].code == "EMPTY_MESSAGE":
        return {"code": 50006, "message": "Cannot send an empty message"}
    return {"code": 50035, "message": "Invalid Form Body", "errors": nest_errors(errors)}
