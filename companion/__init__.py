"""companion: a table-side helper for small dungeon gamebooks and board games.

The package is a library first; ``companion.cli`` is a thin shell over it.
"""

__version__ = "0.1.0"
