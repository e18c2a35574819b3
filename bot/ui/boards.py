"""One live board per game: the board a move replaced shrinks to one line.

The shrinking is cosmetic, so it never holds up or fails the move's own answer: it runs
as a task of its own, outside the interaction's context (it is no part of that answer), and
it is the first thing to give way under load: it goes through the process's REST budget
(bot/ui/rest_budget.py), which runs it when a request to Discord is spare, and keeps only
the newest one waiting per channel.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging

import aiohttp
import discord

from .rest_budget import TASK_NAME, RestBudget

log = logging.getLogger(__name__)

__all__ = ["TASK_NAME", "collapse", "collapse_soon"]

_running: set[asyncio.Task[bool]] = set()  # strong references until each task ends


async def collapse(interaction: discord.Interaction, message_id: int | None, line: str = "",
                   *, embed: discord.Embed | None = None,
                   view: discord.ui.View | None = None) -> bool:
    """Edit an older board of this channel down to ``line`` (or to ``embed``, a finished
    board), without its buttons unless ``view`` (best effort: a board someone deleted, or
    that Discord refuses to edit, stays as is). Returns whether Discord took the edit."""
    channel = interaction.channel
    partial = getattr(channel, "get_partial_message", None)
    if not message_id or partial is None:
        return False
    try:
        await partial(message_id).edit(content=line[:2000] or None,
                                       embeds=[embed] if embed else [], view=view)
    except (TimeoutError, discord.HTTPException, aiohttp.ClientError) as exc:
        log.info("board %s left as it was: %s", message_id, exc)
        return False
    return True


def collapse_soon(interaction: discord.Interaction, message_id: int | None, line: str = "",
                  *, embed: discord.Embed | None = None,
                  view: discord.ui.View | None = None) -> None:
    """:func:`collapse`, after the answer that replaced the board, when the REST budget
    has room (a newer collapse in the same channel replaces this one while it waits)."""
    if not message_id:
        return

    budget = getattr(interaction.client, "rest_budget", None)
    if isinstance(budget, RestBudget) and interaction.channel_id is not None:
        budget.cosmetic(interaction.channel_id, lambda: collapse(
            interaction, message_id, line, embed=embed, view=view))
        return
    task = asyncio.get_running_loop().create_task(
        collapse(interaction, message_id, line, embed=embed, view=view),
        name=f"{TASK_NAME}-{message_id}", context=contextvars.Context())
    _running.add(task)
    task.add_done_callback(_running.discard)
