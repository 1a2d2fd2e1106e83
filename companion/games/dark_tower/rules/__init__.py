"""The Dark Tower's rules, by topic: plain Python on the state, shared by guided play (``engine/``) and the
one-shot commands (``cli/``, through the ``dark`` event's reducer in :mod:`.events`).

``lookup`` reads the table (the game, its terms, cards, heroes and items by name); ``cards`` is the card
catalogue and ``decks`` the deck calculator; ``setup``, ``draw``, ``checks``, ``fights``, ``items``,
``health`` and ``turns`` are the rules of each step. Nothing is imported here, so a front end loads only
the topics it needs.
"""
