"""The simulated table, under the lowest layer: wired mock pins, a dummy display, a fake clock, the people.

The controller never imports this package statically; the composition root loads it by name when a
profile says ``backend = "sim"``.
"""
