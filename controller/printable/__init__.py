"""Printable boards: each game's ``draw(path)`` lives in a module here, named by the registry's ``printable``."""
