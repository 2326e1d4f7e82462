"""The controller: the composition root, CLI, game flows and the drivers behind small interfaces."""
