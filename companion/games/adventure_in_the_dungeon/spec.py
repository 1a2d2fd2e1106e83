"""The Adventure in the Dungeon's contract (:class:`companion.contract.game.Game`): its engine, screen,
variants and commands, and the sheet it keeps for a party that fights from the book."""

from companion.contract.game import Game, Names, NotApplicable, Refresh, Variant, anyone, one_table
from companion.games.adventure_in_the_dungeon import data as D
from companion.games.adventure_in_the_dungeon import engine, view
from companion.games.adventure_in_the_dungeon import rules as R
from companion.games.adventure_in_the_dungeon.engine import table
from companion.games.adventure_in_the_dungeon.model import Dungeon
from companion.games.adventure_in_the_dungeon.rules import FLEE_WITH_ALL, GORGON_EACH, MAGIC_TWO_SKELETONS, hand

VARIANTS = {
    GORGON_EACH: Variant(
        GORGON_EACH,
        "Struck first, the Gorgon still attacks every hero",
        "If the Rangeress hits the Gorgon before it attacks, it still attacks every hero, for one hit each. "
        "(By default it loses its power that round and makes one ordinary attack.)",
    ),
    MAGIC_TWO_SKELETONS: Variant(
        MAGIC_TWO_SKELETONS,
        "A spell destroys two Iron Skeletons",
        "The Wizard's two-hit spell destroys two skeletons. (By default its two hits fall on one opponent, "
        "and one hit destroys a skeleton.)",
    ),
    FLEE_WITH_ALL: Variant(
        FLEE_WITH_ALL,
        "The party flees with the entwined and the trapped",
        "Fleeing takes heroes held by the octopus or the webs along. (By default the octopus drowns the "
        "entwined and the spider eats those left in its webs.)",
    ),
}


def names(state: object) -> Names:
    """The four heroes and the monsters of the area list (Area 12's when the player said it has one)."""
    data = getattr(state, "data", {})
    return Names(tuple(h.name for h in D.HEROES), tuple(a.monster for a in R.areas(data).values()))


GAME = Game(
    name="talisman",
    title="The Adventure in the Dungeon",
    log_title="The Adventure in the Dungeon",
    variants=VARIANTS,
    tables={},
    ways=(
        "  guided: companion runs each fight and asks your book's numbers once;",
        "  or fight from your book and keep only the sheet here: mark hits with",
        "  companion tally hit Krylla (or Xorn), roll for the Talisman after a kill",
        "  with companion talisman; companion dungeon areas shows the map.",
    ),
    words=NotApplicable(
        "the game records no action of its own: its fights are guided steps (said by their questions), "
        "and by hand it keeps the shared tallies, the Talisman search and the book's numbers"
    ),
    state_type=Dungeon,
    setup=engine.setup,
    play=engine.play,
    refresh=Refresh(since=table.SIDE_BY_SIDE),  # hand tallies and the Talisman roll beside guided play
    reducers={},
    gamedata=engine.read_data,
    needs=table.needs,
    tracked=table.tracked,
    talisman_left=table.talisman_left,
    guided_tallies=table.guided_tallies,
    lacks={
        "hp": "heroes take hits on their tallies (companion tally hit NAME)",
        "xp": "heroes do not gain experience; the party wins by bringing the Talisman out",
        "gold": "the party seeks the Talisman, not gold (companion item NAME +1 for what you carry)",
    },
    xp_to_next=NotApplicable("heroes do not gain experience in this game"),
    commands="companion.games.adventure_in_the_dungeon.cli:app",
    allows=hand.refuse,
    advise=view.advise,
    risk=view.risk,
    chances=view.chances,
    status=view.status,
    board=view.board,
    controls=NotApplicable("the heroes' hits are tallies, changed by companion tally"),
    hero=view.heroes_line,
    moments="companion.games.adventure_in_the_dungeon.moments:Probe",
    odds="talisman",
    names=names,
    seats=one_table,
    turn=anyone,
    secrets=NotApplicable("a solo game: every monster and every roll is on the table"),
    draws=NotApplicable("every roll is a die: no cup or deck"),
)
