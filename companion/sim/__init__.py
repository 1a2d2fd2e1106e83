"""Exact fight odds and whole-game simulation, for every game that gives them, through the games' own rules.

- :mod:`.fights`: what a game's exact fight odds look like to the shells (:class:`.fights.FightOutcome`)
  and the registry ``FIGHT_ODDS`` behind ``companion odds fight GAME ...``;
- :mod:`.runner`: the simulator. A game's guided engine (the one ``companion play`` runs) is played to
  its end many times: the session's seeded ``VirtualDice`` answer the rolls and a named policy answers
  the choices. ``SIMULATORS`` lists the games it can play (:class:`.runner.Simulator`, one per game);
- :mod:`.stats`: the 95% confidence intervals (Wilson for proportions, Student t for means);
- :mod:`.report`: the simulator's report, as JSON and as rich tables;
- :mod:`.chart`: the small bar charts of an outcome distribution.

``docs/odds-and-simulation.md`` says how to plug a new game into both registries.
"""
