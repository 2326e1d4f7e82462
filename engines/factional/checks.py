"""Readers for a state's JSON values that name the offending key (journals can be hand-edited or torn)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def choice(value: object, allowed: Sequence[str], key: str) -> str:
    if value not in allowed:
        raise ValueError(f"{key}: expected one of {', '.join(allowed)}, got {value!r}")
    return str(value)


def maybe(value: object, allowed: Sequence[str], key: str) -> str | None:
    """``choice`` where JSON null stands for nobody."""
    if value is None:
        return None
    if value not in allowed:
        raise ValueError(f"{key}: expected one of {', '.join(allowed)} or null, got {value!r}")
    return str(value)


def whole(value: object, key: str, low: int | None = None, high: int | None = None) -> int:
    if (isinstance(value, bool) or not isinstance(value, int) or (low is not None and value < low)
            or (high is not None and value > high)):
        span = f"{'' if low is None else low}..{'' if high is None else high}"
        raise ValueError(f"{key}: expected a whole number {span}, got {value!r}")
    return value


def boolean(value: object, key: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{key}: expected true or false, got {value!r}")
    return value


def mapping(value: object, key: str, names: Sequence[str]) -> dict[str, Any]:
    """A JSON object with exactly these keys, in this order."""
    if not isinstance(value, Mapping):
        raise ValueError(f"{key}: expected an object with keys {', '.join(names)}, got {value!r}")
    missing = [n for n in names if n not in value]
    extra = [str(n) for n in value if n not in names]
    problems = [f"{what} {', '.join(names_)}" for what, names_ in (("missing", missing), ("unknown", extra))
                if names_]
    if problems:
        raise ValueError(f"{key}: {'; '.join(problems)}")
    return {n: value[n] for n in names}
