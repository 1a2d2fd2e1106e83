"""Freeform's contract (:class:`companion.contract.game.Game`): no rules; a table pack's fight in
progress on the shell's bar (:mod:`companion.games.freeform.view`)."""

from companion.contract.game import Game, NotApplicable, anyone, one_table


def _board(state):  # type: ignore[no-untyped-def]
    from companion.games.freeform.view import board

    return board(state)


NO_RULES = "freeform keeps no rules of its own"

GAME = Game(
    name="freeform",
    title="Freeform session",
    log_title="Freeform session",
    variants={},
    tables={},
    ways=(),
    words=NotApplicable(f"{NO_RULES}: every action is a shared one (a roll, a note, a tracker, a pack's roll)"),
    state_type=NotApplicable(f"{NO_RULES}: its state is the generic trackers"),
    setup=NotApplicable(f"{NO_RULES}: a new session starts with no trackers"),
    play=NotApplicable(f"{NO_RULES}: no guided play (a table pack's fight is played with companion fight)"),
    refresh=NotApplicable(f"{NO_RULES}: no engine waits (a pack's fight step is read from the table each time)"),
    reducers={},
    gamedata=NotApplicable(NO_RULES),
    needs=NotApplicable(NO_RULES),
    tracked=NotApplicable(NO_RULES),
    talisman_left=NotApplicable(f"{NO_RULES}: the Talisman roll asks how many monsters are left"),
    guided_tallies=NotApplicable(f"{NO_RULES}: the tallies are the player's"),
    lacks={},
    xp_to_next=NotApplicable(f"{NO_RULES}: XP is a plain count"),
    commands=NotApplicable(f"{NO_RULES}: the generic commands and a table pack's are all it has"),
    allows=NotApplicable(f"{NO_RULES}: every tracker is the player's"),
    advise=NotApplicable(f"{NO_RULES}: a pack fight's odds are on its own step"),
    risk=NotApplicable(NO_RULES),
    chances=NotApplicable(f"{NO_RULES}: a pack fight's step has one way on"),
    status=NotApplicable(f"{NO_RULES}: the status lists the generic trackers"),
    board=_board,
    controls=NotApplicable(f"{NO_RULES}: the page's controls are the generic trackers'"),
    hero=NotApplicable(f"{NO_RULES}: the log's hero is the session's"),
    moments="companion.games.freeform.moments:Probe",  # a table pack's fights and checks
    odds="pack",
    names=NotApplicable("no rules of its own: the names are the player's tallies"),
    seats=one_table,
    turn=anyone,
    secrets=NotApplicable(f"{NO_RULES}: nothing is hidden"),
    draws=NotApplicable(f"{NO_RULES}: every roll is a die (a pack's tables are rolled, not drawn)"),
)
