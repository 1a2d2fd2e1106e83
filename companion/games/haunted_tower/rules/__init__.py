"""The Haunted Tower's rules, by topic: one implementation for guided play (``engine.py``) and the
one-shot commands (``cli/``, through the ``haunted`` event's reducer in :mod:`.events`).

``lookup`` reads the table (the game, heroes and items by name, seats, the fight in progress);
``numbers`` (attack numbers, AC, damage), ``rolls`` (the rolls a step needs, what a fight needs next),
``heroes``, ``fights``, ``items``, ``climb`` and ``score`` are the rules of each step. Nothing is
imported here, so a front end loads only the topics it needs.
"""
