"""The serial path to an optional microcontroller that reads large boards (see README.md here)."""
