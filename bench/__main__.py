"""``python -m bench``: every benchmark of the project in one run."""

from bench import playouts

if __name__ == "__main__":
    playouts.report()
