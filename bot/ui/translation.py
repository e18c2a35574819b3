"""Which language an answer speaks, and the slash commands' names in every shipped locale.

Ephemeral answers speak the user's locale (``interaction.locale``); public boards speak the
server's (``guild_locale``, or the language set in ``/mastermind settings``); in DMs there is
no server, so the user's. The catalogs themselves are Discord-free (:mod:`i18n`).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from functools import cache

import discord
from discord import app_commands

from i18n import catalog_locale, speaking, use_locale
from i18n.catalogs import CHOICE_CONTEXT, FIELD_CONTEXTS, OPTION_CONTEXTS, lookup
from i18n.commands import localize_commands

from .client import bot_of

_Location = app_commands.TranslationContextLocation
#: The catalog context of each field discord.py asks to translate.
CONTEXTS = {
    _Location.command_name: FIELD_CONTEXTS["name"],
    _Location.group_name: FIELD_CONTEXTS["name"],
    _Location.command_description: FIELD_CONTEXTS["description"],
    _Location.group_description: FIELD_CONTEXTS["description"],
    _Location.parameter_name: OPTION_CONTEXTS["name"],
    _Location.parameter_description: OPTION_CONTEXTS["description"],
    _Location.choice_name: CHOICE_CONTEXT,
}


def user_locale(interaction: discord.Interaction) -> str | None:
    """The catalog for whoever clicked or typed (None: English)."""
    return catalog_locale(interaction.locale.value if interaction.locale else None)


def public_locale(interaction: discord.Interaction) -> str | None:
    """The catalog for a message everyone in the channel sees: the language the server set
    in ``/mastermind settings``, else the server's own locale; in a DM, the user's."""
    if interaction.guild_id is None:
        return user_locale(interaction)
    guild_locale = interaction.guild_locale
    return server_locale(bot_of(interaction).services.settings.language(interaction.guild_id),
                         guild_locale.value if guild_locale else None)


def server_locale(configured: str | None, guild_locale: str | None) -> str | None:
    """The catalog a server's public messages speak: the language set in ``/mastermind
    settings``, else the server's own locale (the chat's answers and the Activity's board
    edits alike)."""
    return catalog_locale(configured or guild_locale)


def publicly(interaction: discord.Interaction) -> AbstractContextManager[None]:
    """Within it, words are in the language of the channel's public messages:
    ``with publicly(interaction): embed = board_embed(...)``."""
    return speaking(public_locale(interaction))


def for_board(interaction: discord.Interaction, *, private: bool
              ) -> AbstractContextManager[None]:
    """A game's board in its readers' language: a private game's (and what is said with it)
    in its player's, a channel game's in the channel's (:func:`publicly`)."""
    return speaking(user_locale(interaction)) if private else publicly(interaction)


def speak_to_user(interaction: discord.Interaction) -> None:
    """An interaction's task speaks its user's language unless told otherwise."""
    use_locale(user_locale(interaction))


class CatalogTranslator(app_commands.Translator):
    """Command and option names, descriptions and choices from the ``commands`` catalogs,
    so Discord shows each user the commands in their own language."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        return _command_word(locale.value, context.location, string.message)


@cache
def _command_word(locale: str, location: app_commands.TranslationContextLocation,
                  message: str) -> str | None:
    """One field of one command in one locale. Remembered: a sync asks for every field in
    every one of Discord's 30-odd locales (about 6,000 questions), and the catalogs never
    change while the process runs."""
    catalog = catalog_locale(locale)
    kind = CONTEXTS.get(location)
    if catalog is None or kind is None:
        return None
    found = lookup(catalog, kind, message)
    if found is None or kind in (FIELD_CONTEXTS["name"], OPTION_CONTEXTS["name"]):
        return found
    return localize_commands(catalog, found)  # a description naming another command
