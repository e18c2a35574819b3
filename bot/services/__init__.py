"""Services several features share, Discord-free, above the store and below the features:
the lifecycle of a game (``games``). A feature's own rules stay in its ``service.py``."""
