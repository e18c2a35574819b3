"""One live board per game: the board a move replaced shrinks to one line.

The shrinking is cosmetic, so it never holds up or fails the move's own answer: it runs
as a task of its own, outside the interaction's context (it is no part of that answer), and
it is the first thing to give way under load: it goes through the process's REST budget
(bot/ui/rest_budget.py), which runs it when a request to Discord is spare, and keeps only
the newest edit waiting per board. Where the bot is not in the channel (see
:mod:`bot.ui.places`) it can't edit an older message, so the boards there stay as they were.
"""

from __future__ import annotations

import logging

import aiohttp
import discord

from .client import bot_of
from .places import bot_in_channel
from .rest_budget import TASK_NAME

log = logging.getLogger(__name__)

__all__ = ["TASK_NAME", "collapse", "collapse_soon"]

def line_layout(line: str) -> discord.ui.LayoutView:
    """A Components V2 message of one line: what a V2 board (a message keeps the flag, so
    it can't take plain content again) shrinks to."""
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.TextDisplay(line[:4000]))
    return view


async def collapse(interaction: discord.Interaction, message_id: int | None, line: str = "",
                   *, embed: discord.Embed | None = None,
                   view: discord.ui.View | discord.ui.LayoutView | None = None,
                   v2: bool = False) -> bool:
    """Edit an older board of this channel down to ``line`` (or to ``embed``, a finished
    board), without its buttons unless ``view`` (best effort: a board someone deleted, or
    that Discord refuses to edit, stays as is). ``v2``: the board is a Components V2
    message (a challenge's), so it becomes ``view`` if that is a layout, else ``line``.
    Returns whether Discord took the edit."""
    channel = interaction.channel
    partial = getattr(channel, "get_partial_message", None)
    if not message_id or partial is None:
        return False
    try:
        if v2 or isinstance(view, discord.ui.LayoutView):
            layout = view if isinstance(view, discord.ui.LayoutView) else line_layout(line)
            await partial(message_id).edit(view=layout)
        else:
            await partial(message_id).edit(content=line[:2000] or None,
                                           embeds=[embed] if embed else [], view=view)
    except (TimeoutError, discord.HTTPException, aiohttp.ClientError) as exc:
        log.info("board %s left as it was: %s", message_id, exc)
        return False
    return True


def collapse_soon(interaction: discord.Interaction, message_id: int | None, line: str = "",
                  *, embed: discord.Embed | None = None,
                  view: discord.ui.View | discord.ui.LayoutView | None = None,
                  v2: bool = False) -> None:
    """:func:`collapse`, after the answer that replaced the board, when the REST budget
    has room (a newer collapse of the same board replaces this one while it waits)."""
    if not message_id or not bot_in_channel(interaction):
        return
    bot_of(interaction).rest_budget.cosmetic(message_id, lambda: collapse(
        interaction, message_id, line, embed=embed, view=view, v2=v2))
