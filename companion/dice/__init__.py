"""The dice core: one module family owns every die companion rolls.

- :mod:`companion.dice.faces` says what a die is (sides, how a face reads);
- :mod:`companion.dice.expr` parses what the player types (``DC``, ``2d6+1>=7``, ``SR STR,DEX,INT``);
- :mod:`companion.dice.roll` evaluates faces into a :class:`~companion.dice.roll.Roll` record;
- :mod:`companion.dice.source` supplies faces, virtually (seeded) or physically (typed and checked);
- :mod:`companion.dice.odds` gives exact probabilities as fractions;
- :mod:`companion.dice.render` turns a roll into text or JSON, and nothing else does.

Parse, evaluate and render live apart so that a roll can be replayed, shown or checked the same way
everywhere.
"""

from companion.dice.expr import Expr, parse
from companion.dice.roll import Roll, evaluate

__all__ = ["Expr", "Roll", "evaluate", "parse"]
