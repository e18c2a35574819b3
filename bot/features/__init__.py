"""One package per feature: its slash commands (``cog``), persistent buttons and modals
(``buttons``), words and embeds (``render``) and its Discord-free ``service``."""
