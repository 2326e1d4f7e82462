"""One flow per game: a transitions state machine turning sensed events into engine moves."""
