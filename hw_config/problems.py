"""What is wrong with a profile: each problem names file, key and what is wrong.

A broken profile is fixed faster when every problem is named at once, but a runaway one must not bury
the first problems under thousands of lines: the message says the first ``SHOWN``, then a count.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

SHOWN = 20


@dataclass(frozen=True)
class Problem:
    file: str
    key: str  # "-": the file as a whole (missing, unreadable, not TOML), so the message names no key
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.message}" if self.key == "-" else f"{self.file}: {self.key}: {self.message}"


class ConfigError(ValueError):
    """Every problem found in a profile or its layout (``problems``); ``str()`` lists the first ``SHOWN``,
    one per line, then how many more there are."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = list(problems)
        more = len(self.problems) - SHOWN
        super().__init__("\n".join([str(p) for p in self.problems[:SHOWN]] + ([f"... and {more} more"] if more > 0
                                                                                 else [])))
