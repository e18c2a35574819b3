"""The private settings summary: every setting, what just changed, and who changed what."""

from __future__ import annotations

import discord

from ...core.errors import BadSetting, ChannelNotAllowed
from ...store.settings import SettingChange
from ...ui.messages import mention, says
from .service import ServerSettings, describe


def settings_embed(server: str, settings: ServerSettings, default_idle_hours: float,
                   changed: list[str], log: list[SettingChange]) -> discord.Embed:
    words = describe(settings, default_idle_hours)
    embed = discord.Embed(title=f"Mastermind settings · {server}"[:256],
                          colour=discord.Colour.dark_teal())
    embed.description = (f"Changed: {', '.join(changed)}." if changed else
                         "Nothing changed. Give an option to change a setting.")
    names = {"hints": "Hints (/mastermind hint)", "rules": "Default rules for /mastermind new",
             "idle timeout": "Idle timeout", "channels": "Games allowed in",
             "daily results": "Daily results (/daily share)"}
    for key, title in names.items():
        embed.add_field(name=title, value=words[key][:1024], inline=key != "channels")
    if log:
        lines = [f"<t:{int(c.changed_at)}:R> {mention(c.user_id)} {c.name}: {c.old} → {c.new}"
                 for c in log]
        embed.add_field(name="Recent changes", value="\n".join(lines)[:1024], inline=False)
    embed.set_footer(text="Only you see this · Manage Server can change these")
    return embed


@says(BadSetting)
def _bad_setting(error: BadSetting) -> tuple[str, str]:
    reason = error.reason[:1].upper() + error.reason[1:]
    return "That setting doesn't work", f"{reason}. Nothing changed."


@says(ChannelNotAllowed)
def _not_here(error: ChannelNotAllowed) -> tuple[str, str]:
    places = ", ".join(f"<#{c}>" for c in error.allowed)
    return "No games in this channel", (
        f"This server plays Mastermind in {places}. Nothing was started here: use one of "
        f"those (Manage Server can change the list with `/mastermind settings`).")
