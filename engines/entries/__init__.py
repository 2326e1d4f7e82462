"""The five built-in games' registry entries, one data module each, named by the ``boardkeeper.games`` entry
points of ``pyproject.toml``: importing one loads no rules, so ``boardkeeper games`` and ``--help`` stay cheap."""
