"""The rest of a bare line at the shell, answered ahead (``54``: option 5, then 4; ``ro 4``), and the
line for faces of several rolls typed apart."""

from __future__ import annotations

from typing import Any

from companion.i18n import _


def answer_ahead(self: Any, code: int) -> int:  # the Shell (companion.shell.repl imports this module)
    """The rest of a bare line, read against each next step in turn (``54``: option 5, then 4), as
    long as each part is taken; a part no step takes is said in one line, and nothing after it runs."""
    from companion.engine.pending import read_bare

    for _step in range(50):  # a line holds a few answers, never without end
        rest, self._rest = self._rest.strip(), ""
        if not rest or code != 0:
            return code
        p = self.pending
        if p is None or p.run != ("next",) or (p.secret and not p.enter_rolls):
            self.env.error(_("{rest} was not taken: no step waits for it").format(rest=rest))
            return 2
        reading = read_bare(p, rest)
        if not reading.ok:
            why = reading.both or reading.error
            self.env.error(_("{rest} was not taken: {why}").format(rest=rest, why=why))
            return 2
        self._rest = reading.rest
        code = self._answer([*p.run, *reading.words])
    return code


def ungrouped(env: Any, p: Any) -> int:
    """Faces of several rolls (a pack fight's round) that do not split into each roll's dice: one line."""
    env.error(
        _("type each die, {n} in all (each roll's dice in turn, e.g. {example}), or Enter to roll them").format(
            n=sum(p.split), example=p.example
        )
    )
    return 2
