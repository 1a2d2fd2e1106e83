"""Table packs: a player's own gamebook as data (roll tables, checks, trackers), read from TOML.

- :mod:`companion.packs.pack`: the format, read and checked (every refusal names the file and line);
- :mod:`companion.packs.lines`: finds the line of a value in the TOML source;
- :mod:`companion.packs.rolling`: rolls a table and follows its references, a check, exact odds;
- :mod:`companion.packs.find`: where packs live (the config folder, a session's copy, the built-in games);
- a gamebook's fights (``[fights.NAME]``, ``[foes]``): :mod:`~companion.packs.fight_model` (what is
  read), :mod:`~companion.packs.read_fights` and :mod:`~companion.packs.fight_exprs` (reading and
  refusing), :mod:`~companion.packs.fight_rules` (a round: the one implementation), and
  :mod:`~companion.packs.fight_play` (a played step), :mod:`~companion.packs.fight_odds`,
  :mod:`~companion.packs.fight_chain` and :mod:`~companion.packs.fight_outcome` (the exact odds).

Nothing here does I/O beyond reading pack files, and nothing imports the CLI or the session layer.
Loaded only when a command uses a table pack, so other one-shot commands never import ``tomllib``.
"""
