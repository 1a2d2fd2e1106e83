"""Sessions: a game's events, the state folded from them, and the trackers players keep."""
