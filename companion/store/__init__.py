"""Saves on disk: atomic TinyDB files, one folder per session, a lock per session."""
