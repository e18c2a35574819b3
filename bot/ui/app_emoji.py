"""The drawn pegs as the application's own emoji: uploaded once, found again on every start.

An application emoji's name is its colour and the first hex digits of its drawing's pixel
hash (``red_1a2b3c``), so the name says which drawing it holds: at start-up (and once a
day) the bot records that it shows its names, lists the app's emoji, deletes its own older
drawings that no version has shown for 7 days (:mod:`bot.services.emoji_use`: another
version still running keeps its boards drawn through a rolling deploy or a rollback), and
uploads only the names it lacks. A restart uploads nothing; a new drawing adds exactly the
pegs that changed. Emoji the app's owner uploaded for anything else are never touched.

Two processes starting at once may both upload a name; Discord refuses the second (the
name is taken), so a refused upload is followed by one more look at the list.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import discord

from .peg_images import HOLE, PegImage
from .pegs import PegSet

log = logging.getLogger(__name__)

HASH_DIGITS = 6  # of the pixel hash in a name: a changed drawing changes its name


def emoji_name(image: PegImage) -> str:
    """``red_1a2b3c``: 2-32 characters of ``[a-z0-9_]``, as Discord requires."""
    return f"{image.name}_{image.pixel_hash[:HASH_DIGITS]}"


def is_ours(name: str, images: Iterable[PegImage]) -> bool:
    """A name this bot gives (some drawing of one of its pegs), current or not."""
    colours = "|".join(re.escape(i.name) for i in images)
    return re.fullmatch(f"(?:{colours})_[0-9a-f]{{{HASH_DIGITS}}}", name) is not None


class PegUse(Protocol):
    """The record of which pegs running versions show (:class:`EmojiUseService`)."""

    async def mark(self, names: Iterable[str]) -> None: ...

    async def unused(self, names: Iterable[str]) -> list[str]: ...

    async def claim(self, name: str) -> bool: ...


@dataclass
class Sync:
    """What one sync did (by name): this version's emoji kept and uploaded, older drawings
    deleted and those left for versions that may still show them."""

    kept: list[str] = field(default_factory=list)
    uploaded: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    others: list[str] = field(default_factory=list)
    emoji: dict[str, discord.PartialEmoji] = field(default_factory=dict)

    def peg_set(self) -> PegSet:
        return PegSet.custom(self.emoji, HOLE)


def _partial(emoji: discord.Emoji) -> discord.PartialEmoji:
    return discord.PartialEmoji(name=emoji.name, id=emoji.id, animated=emoji.animated)


async def sync_pegs(client: discord.Client, images: Sequence[PegImage], use: PegUse) -> Sync:
    """Make the app's emoji hold the current drawings of ``images``, recorded in ``use`` as
    shown, and no older drawing that no version has shown for a while.

    Raises :class:`discord.HTTPException` when Discord refuses the listing or an upload
    that a second look does not make good (a refused deletion only leaves an older drawing
    in place); the caller bounds the time taken.
    """
    wanted = {emoji_name(image): image for image in images}
    await use.mark(wanted)  # before the listing: a version deleting meanwhile sees the mark
    sync = Sync()
    have = {e.name: e for e in await client.fetch_application_emojis()}
    older = [name for name in have if name not in wanted and is_ours(name, images)]
    unused = await use.unused(older)
    for name in older:
        if name not in unused or not await use.claim(name):
            sync.others.append(name)
            continue
        try:
            await have[name].delete()
        except discord.HTTPException as exc:  # housekeeping: never worth the pegs
            log.info("pegs: an older drawing, %s, stays for 7 more days (%s)", name,
                     exc.text or exc.status)
            await use.mark([name])
            sync.others.append(name)
        else:
            sync.deleted.append(name)
    for name, image in wanted.items():
        if name in have:
            sync.kept.append(name)
        else:
            try:
                have[name] = await client.create_application_emoji(name=name, image=image.png)
            except discord.HTTPException:
                # Taken since the listing (another process uploading the same drawing)?
                have = {e.name: e for e in await client.fetch_application_emojis()}
                if name not in have:
                    raise
                sync.kept.append(name)
            else:
                sync.uploaded.append(name)
        sync.emoji[image.name] = _partial(have[name])
    return sync
