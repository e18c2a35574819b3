"""Every word the bot and the terminal say, in the player's language.

gettext catalogs (``.po`` files) read with Babel; see :mod:`i18n.catalogs` for how the code
asks for words and :mod:`i18n.locales` for which catalog a Discord locale or ``LANG`` reads.
"""

from .catalogs import command, current_locale, mark, speaking, tr, trc, trn, use_locale
from .locales import SHIPPED, SOURCE, catalog_locale, from_environment

__all__ = [
    "SHIPPED",
    "SOURCE",
    "catalog_locale",
    "command",
    "current_locale",
    "from_environment",
    "mark",
    "speaking",
    "tr",
    "trc",
    "trn",
    "use_locale",
]
