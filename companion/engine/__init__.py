"""The engine protocol: rules engines ask, shells answer.

A guided game is a generator that yields :mod:`requests <companion.engine.requests>` (roll this,
choose one of these) and receives answers. The same generator runs under the interactive prompt,
the one-shot ``companion next`` command, scripted tests, a replay from the save, and the simulator;
only the answerer changes.
"""
