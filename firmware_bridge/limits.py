"""What the board link is shown to survive, in a module light enough for the CLI to read at start-up."""

# the largest share of bytes with a bit flipped (both ways) that the link is shown to carry a game through
# unchanged, as bench.bridge measures it; the demo's --line-noise refuses more
NOISE_LIMIT = 0.2
