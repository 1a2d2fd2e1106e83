"""The Inverted Tower's contract (:class:`companion.contract.game.Game`): every member a front end needs."""

from __future__ import annotations

from companion.contract.game import Game, NotApplicable, Refresh, anyone, one_table
from companion.games.inverted_tower.words import WORDS

from . import data, rules, view
from .engine import play
from .model import Tower
from .rules import events, hand
from .rules.tables import TABLES

GAME = Game(
    name="inverted-tower",
    title="The Inverted Tower",
    log_title="The Inverted Tower",
    variants=data.VARIANTS,
    tables=TABLES,
    ways=(),
    words=WORDS,
    state_type=Tower,
    setup=rules.setup,
    play=play,
    refresh=Refresh(since=1),
    reducers=events.REDUCERS,
    gamedata=NotApplicable("every rule number is in the draft: nothing is asked from the player's book"),
    needs=NotApplicable("no one-shot command needs a number from the player's book"),
    tracked=NotApplicable("the game's own state follows its own events, not the generic trackers"),
    talisman_left=NotApplicable("no Talisman in this game"),
    guided_tallies=NotApplicable("the hero's health is HP, not a tally"),
    lacks={},
    xp_to_next=rules.xp_to_next,
    commands="companion.games.inverted_tower.cli:app",
    allows=hand.refuse,
    advise=view.advise,
    risk=view.risk,
    chances=view.chances,
    status=view.status,
    board=view.board,
    controls=NotApplicable("the page's controls are the generic trackers' (HP, XP, gold)"),
    hero=view.hero,
    moments="companion.games.inverted_tower.moments:Probe",
    odds="inverted-tower",
    names=NotApplicable("one hero, and a room's foe is fought where it is met: the tallies are the player's own"),
    seats=one_table,
    turn=anyone,
    secrets=NotApplicable("a solo game: every roll and every room is on the table"),
    draws=NotApplicable("every roll is a die: no cup or deck"),
)
