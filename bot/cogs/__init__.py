"""Discord-facing cogs: thin layers that turn interactions into service calls and replies."""
