"""What each interaction counts for the operators' metrics (``MastermindBot.metrics``): its
kind and name, how long its answer took, the errors and mistakes answered."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import discord

from .client import bot_of

#: Kinds of interaction, as the metrics label them.
_KINDS = {discord.InteractionType.application_command: "command",
          discord.InteractionType.component: "button",
          discord.InteractionType.modal_submit: "modal",
          discord.InteractionType.autocomplete: "autocomplete"}
#: A custom_id's name: its leading words (``mmc:r`` of ``mmc:r:12:3:1:0``).
_CUSTOM_NAME = re.compile(r"[a-z]+(?::[a-z]+)*")


def action_labels(interaction: discord.Interaction) -> tuple[str, str]:
    """(kind, name) of an interaction for the metrics: a command's full name, or the
    leading words of a button's or form's custom_id (the metrics bound how many)."""
    kind = _KINDS.get(interaction.type, "other")
    data: Any = interaction.data or {}
    if kind in ("command", "autocomplete"):
        command = interaction.command
        return kind, command.qualified_name if command else str(data.get("name", "?"))
    found = _CUSTOM_NAME.match(str(data.get("custom_id", "")))
    return kind, found.group(0) if found else "?"


def time_reply(interaction: discord.Interaction) -> None:
    """Measure this interaction's handler, from now until its task (answer sent) is done."""
    metrics, task = bot_of(interaction).metrics, asyncio.current_task()
    if task is None:
        return
    started = time.perf_counter()
    labels = action_labels(interaction)
    task.add_done_callback(
        lambda _: metrics.reply_took(time.perf_counter() - started, *labels))


def count_error(interaction: discord.Interaction, kind: str) -> None:
    """An error answered: ``expired``, ``storage``, ``discord`` or ``bug``."""
    bot_of(interaction).metrics.error(kind)


def count_mistake(interaction: discord.Interaction, mistake: Exception) -> None:
    """A player's mistake answered, by its kind (the domain error's class)."""
    bot_of(interaction).metrics.mistake(type(mistake).__name__)
