"""Benchmarks: they print numbers and ratios against targets. The reliability benches (``powercut``,
``soak``) also check a promise and exit 1, naming the failing case, when it is broken."""
