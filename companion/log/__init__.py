"""The dungeon log: a model that play appends to, and its markdown rendering."""
