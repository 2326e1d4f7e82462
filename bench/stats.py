"""The percentile the benches report: statistics' exclusive method, one value its own percentile, none 0."""

from __future__ import annotations

import statistics


def percentile(values: list[float], q: int) -> float:
    """The ``q``-th percentile of ``values`` (1..99)."""
    return statistics.quantiles(values, n=100)[q - 1] if len(values) >= 2 else (values[0] if values else 0.0)
