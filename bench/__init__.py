"""Benchmarks: they print numbers and ratios against targets; they never pass or fail a build."""
