"""The game's :class:`~companion.games.base.GameSpec`: its engine, screen, variants and commands."""

from companion.games.adventure_in_the_dungeon import engine, view
from companion.games.adventure_in_the_dungeon.engine import table
from companion.games.adventure_in_the_dungeon.model import Dungeon
from companion.games.adventure_in_the_dungeon.rules import FLEE_WITH_ALL, GORGON_EACH, MAGIC_TWO_SKELETONS
from companion.games.base import GameSpec, Variant

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

GAME = GameSpec(
    name="talisman",
    title="The Adventure in the Dungeon",
    variants=VARIANTS,
    state_type=Dungeon,
    setup=engine.setup,
    play=engine.play,
    gamedata=engine.read_data,
    status=view.status,
    advise=view.advise,
    risk=view.risk,
    board=view.board,
    commands="companion.games.adventure_in_the_dungeon.cli:app",
    hero=view.heroes_line,
    log_title="The Adventure in the Dungeon",
    lacks={
        "hp": "heroes take hits on their tallies (companion tally hit NAME)",
        "xp": "heroes do not gain experience; the party wins by bringing the Talisman out",
        "gold": "the party seeks the Talisman, not gold (companion item NAME +1 for what you carry)",
    },
    guided_tallies=lambda state: bool(getattr(state.game, "started", False)),
    tracked=table.tracked,
    needs=table.needs,
    talisman_left=table.talisman_left,
    ways=(
        "  guided: companion runs each fight and asks your book's numbers once;",
        "  or fight from your book and keep only the sheet here: mark hits with",
        "  companion tally hit Krylla (or Xorn), roll for the Talisman after a kill",
        "  with companion talisman; companion dungeon areas shows the map.",
    ),
)
