"""Pure rules engines: the common State API (``engines.base``), the game registry, and bots.

Nothing here imports hardware, I/O or third-party packages, so the rules run anywhere and fast.
"""
