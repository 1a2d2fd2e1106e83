"""The game contract: what every game gives every front end, and the registry that finds a game by name.

A game is one :class:`~companion.contract.game.Game` (built in its package's ``spec.py``). Each of its
members is either provided or declared :class:`~companion.contract.game.NotApplicable` with the
reason, and the object refuses to be built otherwise; front ends (the shell, ``next``, the page, the
exports, the log) ask the game through its methods and never read a game's raw state to guess.

- :mod:`companion.contract.game`: the contract itself (identity, the model, the engine, the pending
  step's advice, risk and best option, the board, controls, status rows, the log's words, moments,
  fight odds, the generic commands' rule, draws, seats and secrets);
- :mod:`companion.contract.secrets`: what a game hides, from whom and until when, and the one filter
  (:func:`companion.contract.secrets.view_for`) every output passes through;
- :mod:`companion.contract.registry`: game names to the modules that hold them (a plugin table of
  module paths: the session layer loads a game by name without importing ``companion.games``).

This package sits below ``companion.session``: it imports nothing from the session, the games or any
front end. See docs/architecture.md ("The game contract") and docs/adding-a-game.md.
"""
