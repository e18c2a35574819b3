"""Dump (and with ``--render`` draw) the screens of private games, a game in the bot's DM
and a shared game in a group DM (where the bot can't shrink older boards), as their players
see them: ``.venv/bin/python bench/ux_private.py /tmp/ux/private --render``.

The scenes run through the test suite's fake Discord like ``bench/ux_dump.py``'s, whose
scene and writer this reuses.
"""

from __future__ import annotations

import contextlib
import sqlite3
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent)]

from ux_dump import Scene, _wrong, cli, dump  # noqa: E402


def _private_secret(scene: Scene, user_id: int) -> str:
    with contextlib.closing(sqlite3.connect(scene.db)) as conn:
        row = conn.execute("SELECT secret FROM games WHERE started_by = ? AND private = 1"
                           " AND status = 'active'", (user_id,)).fetchone()
    return row[0]


def _seen_by(scene: Scene, channel, user_id: int, since: int = 0) -> list[dict]:
    """A channel as one player sees it: everyone's messages and their own ephemeral ones."""
    return [scene.payload(m) for m in scene.fake.messages(channel, include_ephemeral=True)
            if m.id > since and (not m.ephemeral or m.ephemeral_user_id == user_id)]


async def private_game(scene: Scene) -> dict[str, list[dict]]:
    """Bob's game runs in #general; alice plays her own beside it."""
    alice, bob, _ = scene.players
    await scene.slash("mastermind new", bob)
    shared = scene.secret()
    await scene.slash("mastermind new", alice, private=True)
    screens = {"private_new": _seen_by(scene, scene.general, alice.id)}
    secret = _private_secret(scene, alice.id)
    since = scene.fake.messages(scene.general)[-1].id
    await scene.slash("guess", bob, code=_wrong(shared, 0))
    for k in range(2):
        await scene.slash("guess", alice, code=_wrong(secret, k))
    screens["private_trail"] = _seen_by(scene, scene.general, alice.id, since)
    won = await scene.slash("guess", alice, code=secret)
    screens["private_won"] = [scene.payload(won.message)]
    screens["private_seen_by_bob"] = _seen_by(scene, scene.general, bob.id)
    return screens


async def dm_game(scene: Scene) -> dict[str, list[dict]]:
    """Alice in her DM with the bot: every game there is private."""
    alice = scene.players[0].user
    fake, bot = scene.fake, scene.bot

    async def slash(command: str, **options):
        result = await fake.slash(bot, command, user=alice, **options)
        for message in result.messages:
            scene.commands.setdefault(message.id, {"kind": "slash", "user": alice.username,
                                                   "name": command})
        return result

    await slash("mastermind new")
    secret = _private_secret(scene, alice.id)
    for k in range(2):
        await slash("guess", code=_wrong(secret, k))
    await slash("guess", code=secret)
    await slash("stats", options={"user": None})
    return {"dm_game": _seen_by(scene, fake.dm(alice), alice.id)}


async def group_game(scene: Scene) -> dict[str, list[dict]]:
    """A shared game in a group DM, reached through alice's own install: every board stays
    whole (the bot is not in the group, so it can't shrink the older ones)."""
    alice, bob, _ = (p.user for p in scene.players)
    fake, bot = scene.fake, scene.bot
    fake.user_install(alice)
    fake.user_install(bob)  # commands there need the app on one's own account
    group = fake.group_dm(alice, bob, name="friends")

    async def slash(user, command: str, **options):
        result = await fake.slash(bot, command, user=user, channel=group, **options)
        for message in result.messages:
            scene.commands.setdefault(message.id, {"kind": "slash", "user": user.username,
                                                   "name": command})
        return result

    await slash(alice, "mastermind new")
    with contextlib.closing(sqlite3.connect(scene.db)) as conn:
        secret = conn.execute("SELECT secret FROM games WHERE channel_id = ?",
                              (group.id,)).fetchone()[0]
    await slash(bob, "guess", code=_wrong(secret, 0))
    await slash(alice, "guess", code=secret)
    return {"group_game": _seen_by(scene, group, bob.id)}


if __name__ == "__main__":
    cli(lambda out: dump(out, (private_game, dm_game, group_game)))
