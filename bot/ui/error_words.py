"""The words for errors that are not a feature's: Discord's checks and refusals, a command
that changed, a restart, and a failure that is ours (the words of the domain errors are
registered with ``@says``, :mod:`bot.ui.messages`)."""

from __future__ import annotations

from discord import app_commands

from i18n import tr, trc

from ..core.errors import UserError
from .messages import describe_user_error
from .shutdown import Restarting


def describe_error(error: Exception) -> tuple[str, str] | None:
    """A (title, message) for errors that are the user's or Discord's doing, else None.

    Takes app-command errors (unwrapping the one a command raised) and plain exceptions
    from buttons and modals alike."""
    original = getattr(error, "original", error)
    if isinstance(original, UserError):
        return describe_user_error(original)
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return tr("This command was updated"), tr(
            "This command changed in the bot's latest version and your Discord app still "
            "shows the old one. Try again in a moment (restarting Discord refreshes it).")
    if isinstance(error, app_commands.NoPrivateMessage):
        return tr("Servers only"), tr(
            "Mastermind games live in server channels: use this command there.")
    if isinstance(error, app_commands.TransformerError):
        return tr("That value doesn't fit"), tr(
            "I couldn't read {value} for this option. Check the option and try again.",
            value=repr(error.value)[:100])
    if isinstance(error, app_commands.CommandOnCooldown):
        return tr("Slow down"), tr("Try again in {seconds} s.",
                                   seconds=f"{error.retry_after:.0f}")
    if isinstance(error, Restarting):
        return tr("Restarting"), str(error)
    if isinstance(error, app_commands.MissingPermissions):
        needed = ", ".join(map(_permission, error.missing_permissions))
        return tr("Not here"), tr("You need the {permissions} permission for this command.",
                                  permissions=needed)
    if isinstance(error, app_commands.CheckFailure):
        return tr("Not here"), str(error) or tr("You can't use that command here.")
    return None


def _permission(name: str) -> str:
    """A permission as Discord's app names it (``manage_guild``: Manage Server)."""
    if name == "manage_guild":
        return trc("permission", "Manage Server")
    if name == "manage_messages":
        return trc("permission", "Manage Messages")
    return name.replace("_", " ").title()


def failure_words(*, saved: bool, discords: bool) -> tuple[str, str]:
    """(title, message) for a failure that is not the player's doing: whether their move was
    stored (``saved``), else whether Discord failed (``discords``) or the bot did."""
    if saved:
        return tr("Saved, but not shown"), tr(
            "Your move was saved, but showing it failed. Don't repeat it: "
            "`/mastermind board` shows the game as it stands.")
    if discords:
        return tr("Discord didn't take my answer"), tr(
            "Discord didn't take my answer, and nothing was stored. Please try again.")
    return tr("Something went wrong on my side"), tr(
        "Sorry, that failed because of a bug in the bot, and nothing was stored. Please try "
        "again in a moment.")
