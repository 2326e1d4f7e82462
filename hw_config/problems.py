"""What is wrong with a profile, collected rather than raised one at a time, and capped.

A broken profile is fixed faster when every problem is named at once, but a runaway one (a pin list of
two million entries) must not print millions of lines: the first ``SHOWN`` are kept, the rest counted.
"""

from __future__ import annotations

from dataclasses import dataclass

SHOWN = 20


@dataclass(frozen=True)
class Problem:
    file: str
    key: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.key}: {self.message}"


class Problems:
    """The problems found so far: the first ``SHOWN`` kept, every one counted."""

    def __init__(self) -> None:
        self.shown: list[Problem] = []
        self.total = 0

    def add(self, problem: Problem) -> None:
        self.total += 1
        if len(self.shown) < SHOWN:
            self.shown.append(problem)

    def __bool__(self) -> bool:
        return self.total > 0


class ConfigError(ValueError):
    """Every problem found in a profile or its layout; ``lines()`` says them, one per line, capped."""

    def __init__(self, problems: Problems) -> None:
        self.problems = problems.shown
        self.total = problems.total
        super().__init__("\n".join(self.lines()))

    def lines(self) -> list[str]:
        more = self.total - len(self.problems)
        return [str(p) for p in self.problems] + ([f"... and {more} more problem(s) not shown"] if more else [])
