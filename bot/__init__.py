"""The Discord bot: thin cogs over game services, an SQLite store and the pure engine."""
