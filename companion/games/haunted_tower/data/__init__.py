"""The Haunted Tower's rule numbers that are not about one monster: setup, items, climbing, score
(the monster listing is :mod:`.monsters`).

Every number here is printed in the rulebook; where each comes from is listed in
docs/rules/haunted-tower.md. The hero cards and the magic item chits are not in the rulebook: the
players enter them (see ``model.Card`` and ``model.ItemDef``).
"""

from __future__ import annotations

#: The named variants (readings that change play; see ``__init__.VARIANTS``).
RUN_FAIL_TURN = "run-fail-turn"
SPECTER_UNDEAD = "specter-undead"
DEAD_SCORE = "dead-heroes-score"

#: "Setting Up the Board": how many blue chits each player draws, by the number of players.
BLUE_CHITS: dict[int, int] = {3: 17, 4: 13, 5: 10, 6: 8}
MIN_PLAYERS = 3
MAX_PLAYERS = 6

#: "Two dice, a six-sided die (1d6) and a ten-sided (1d10)".
D6 = 6
D10 = 10

#: "Climbing to a New Level": blue chits a hero needs to leave a tower for the next one (a purple
#: chit counts as two blue chits). Keyed by the tower climbed to.
CLIMB_NEEDS: dict[int, int] = {2: 3, 3: 6}
TOWERS = 3
#: "add the 'Specter of Sir Jameson' chit to the cup ... for every room on the third level".
SPECTER_TOWER = 3
#: What one chit of each back counts for when climbing.
BLUE_EQUIVALENT: dict[str, int] = {"blue": 1, "purple": 2}
BACKS = ("blue", "purple")

#: "Magical Items": how many of each kind a hero may carry (a hero card may say otherwise);
#: potions and other orange-symbol chits are not limited.
ITEM_KINDS: dict[str, str] = {
    "armor": "armor (gold shield symbol)",
    "weapon": "weapon (red crossed swords)",
    "shield": "shield",
    "other": "other (orange potion bottle)",
}
LIMITS: dict[str, int] = {"armor": 1, "weapon": 2, "shield": 1}

#: "Damage": normal damage is one hit point plus bonuses; "double" is two.
NORMAL_DAMAGE = 1
#: "Dying": a hero whose HP reach zero a second time is out of the game.
DEATHS_ALLOWED = 2
#: "Dying": attack lost at each death (a green "-1" chit).
DEATH_PENALTY = 1
#: "Experience": what removes one "-1" chit: two blue monster chits or one purple monster chit.
TRADE_COST: dict[str, int] = {"blue": 2, "purple": 1}

#: "Running Away" from the specter: the hero backs up this many spaces.
SPECTER_BACK_OFF = 2

#: "Winning": the score table, in the rulebook's order: (key, what scores, points each).
SCORE: tuple[tuple[str, str, int], ...] = (
    ("standups", "Each monster stand-up", 1),
    ("blue", "Each blue-backed chit", 1),
    ("purple", "Each purple-backed chit", 2),
    ("stake", "Killing the vampire with the stake", 4),
    ("specter_damaged", "Damaging the specter of Sir Jameson", 5),
    ("specter_killed", "Killing the specter of Sir Jameson", 15),
)
POINTS: dict[str, int] = {key: points for key, _, points in SCORE}
#: The score rows in a few words, for the log and the tables.
SHORT: dict[str, str] = {
    "standups": "stand-ups",
    "blue": "blue chits",
    "purple": "purple chits",
    "stake": "stake",
    "specter_damaged": "specter damaged",
    "specter_killed": "specter killed",
}


def setup_lines(players: int | None = None) -> list[str]:
    """The setup reminders, in our words: blue chits per player, then the purple chits' order."""
    lines: list[str] = []
    if players is not None and players in BLUE_CHITS:
        lines.append(f"Blue chits: {players} players draw {BLUE_CHITS[players]} each; the rest are set aside.")
    else:
        lines.append(
            "Blue chits each player draws: " + ", ".join(f"{n} players {c}" for n, c in BLUE_CHITS.items()) + "."
        )
    lines += [
        "Blue chits go face down in rooms, one per square, never in hallways nor in the four squares "
        "before the double doors; a room keeps two empty squares for each blue chit in it.",
        "Purple chits (all but the specter's) go in the cup: one per room, sight unseen, clockwise from "
        "the first player: every room of Tower 1, then every room of Tower 2.",
        "Only then add the Specter of Sir Jameson's chit to the cup, and place one purple chit in every "
        "room of Tower 3.",
    ]
    return lines
