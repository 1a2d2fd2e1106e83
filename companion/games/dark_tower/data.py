"""Every number the Dark Tower rule text gives, its terms in English and Russian, and its two example cards.

The rule text (``/work/shared/seeds/001_*``, in Russian) prints no card lists: only the deck recipe,
the dice, and two cards described as examples. Everything else is entered by the players from their
own cards and kept in their catalogue. ``docs/rules/dark-tower.md`` says where each number comes from.
"""

from __future__ import annotations

from typing import Any

from companion.i18n import N_

#: "Одновременно могут играть до 4 игроков."
MIN_PLAYERS, MAX_PLAYERS = 1, 4
#: "формируется 3 стопки, представляющие из себя каждый этаж башни"
FLOORS = 3
#: Levels 1-3: level 2 on entering floor 2, level 3 on entering floor 3.
MAX_LEVEL = 3
#: "бросьте 3 кубика" for an obstacle, "бросьте 4 кубика" for a monster.
CHECK_DICE = 3
FIGHT_DICE = 4
#: "Начиная со 2 Этажа ... может позвать на помощь другого игрока"
HELP_FROM_FLOOR = 2
#: Each ♥ restores 1 health; each ★ gives 1 energy for this turn.
HEAL_PER_HEART = 1
ENERGY_PER_STAR = 1
#: "Предметов каждого класса, можно иметь только по 1 в наличии."
ITEMS_PER_CLASS = 1
#: An activated spell costs at least one ★ ("должен выбросить на кубиках хотя бы 1 значок энергии").
DEFAULT_SPELL_COST = 1

#: The deck recipe, per floor: kind → (cards, players they are for). ``(4, 1)`` reads "4 for each
#: player", ``(1, 2)`` "1 for every two players" (rounded up: see docs/rules/dark-tower.md).
#:
#: 1 Этаж: по 4 монстра, 1 препятствию на каждого участника и 1 предмету на каждых двух участников
#: 2 Этаж: по 3 монстра, 1 препятствию и 1 предмету на каждого участника
#: 3 Этаж: по 3 монстра, 1 препятствию и 1 предмету на каждых двух участников
DECK_RECIPE: dict[int, dict[str, tuple[int, int]]] = {
    1: {"monster": (4, 1), "obstacle": (1, 1), "item": (1, 2)},
    2: {"monster": (3, 1), "obstacle": (1, 1), "item": (1, 1)},
    3: {"monster": (3, 2), "obstacle": (1, 2), "item": (1, 2)},
}

#: The named variant for the other reading of "по 4 монстра": a fixed number of monsters per floor.
FIXED_MONSTERS = "fixed-monsters"

#: The kinds of floor card, in the order a deck's counts are listed (and a drawn card is picked).
DECK_KINDS = ("monster", "obstacle", "item")
#: Every kind of card the catalogue keeps.
CARD_KINDS = ("hero", "monster", "obstacle", "item", "quest")

#: The two item classes the rule text names; players may enter others (kept as typed).
WEAPON, ARMOR = "weapon", "armor"

#: Terms of the rules, in English; their translations (the rule text's own Russian) are in the
#: catalogue (``companion/locale/ru/LC_MESSAGES/dark-tower.po``, context "term").
TERMS: dict[str, str] = {
    "game": N_("Dark Tower"),
    "floor": N_("Floor"),
    "level": N_("Level"),
    "health": N_("Health"),
    "energy": N_("Energy"),
    "hero": N_("Hero"),
    "heroes": N_("Heroes"),
    "player": N_("Player"),
    "monster": N_("Monster"),
    "monsters": N_("Monsters"),
    "obstacle": N_("Obstacle"),
    "obstacles": N_("Obstacles"),
    "item": N_("Item"),
    "items": N_("Items"),
    "quest": N_("Quest"),
    "quests": N_("Quests"),
    "spell": N_("Spell"),
    "spells": N_("Spells"),
    "permanent": N_("permanent"),
    "activated": N_("activated"),
    "strength": N_("Strength"),
    "bonus": N_("Combat bonus"),
    "check": N_("Check"),
    "penalty": N_("Penalty"),
    "damage": N_("Damage"),
    "weapon": N_("Weapon"),
    "armor": N_("Armor"),
    "class": N_("Class"),
    "ignores": N_("Ignores armor/weapon bonuses"),
    "immune": N_("Immune to spells"),
    "summons": N_("Summons"),
    "takes_item": N_("Takes a random item when it wins"),
    "extra_die": N_("+1 die"),
    "single": N_("Single use"),
    "leader": N_("Leader"),
    "deck": N_("Deck"),
    "left": N_("left"),
    "fight": N_("Fight"),
    "help": N_("Help"),
    "turn": N_("Turn"),
    "discard": N_("Discard"),
    "beaten": N_("Beaten"),
    "table": N_("On the table"),
    "won": N_("won"),
    "lost": N_("lost"),
    "fallen": N_("fallen"),
    "self": N_("self"),
    "all": N_("every hero"),
    "setup": N_("Setup"),
    "now": N_("Now"),
}

#: What a player may type for a kind of card, a class or a property (Russian as the rules write it).
KIND_WORDS: dict[str, str] = {
    "monster": "monster",
    "monsters": "monster",
    "m": "monster",
    "монстр": "monster",
    "монстры": "monster",
    "obstacle": "obstacle",
    "obstacles": "obstacle",
    "o": "obstacle",
    "препятствие": "obstacle",
    "препятствия": "obstacle",
    "item": "item",
    "items": "item",
    "i": "item",
    "предмет": "item",
    "предметы": "item",
    "hero": "hero",
    "heroes": "hero",
    "character": "hero",
    "персонаж": "hero",
    "персонажи": "hero",
    "герой": "hero",
    "quest": "quest",
    "quests": "quest",
    "квест": "quest",
    "квесты": "quest",
}
CLASS_WORDS: dict[str, str] = {
    "weapon": WEAPON,
    "оружие": WEAPON,
    "armor": ARMOR,
    "armour": ARMOR,
    "броня": ARMOR,
    "none": "",
    "-": "",
    "нет": "",
}
#: Card properties as a player may type them (English, or the rule text's own Russian words).
PROPERTY_WORDS: dict[str, str] = {
    "ignores": "ignores",
    "игнорирует": "ignores",
    "immune": "immune",
    "иммунитет": "immune",
    "summons": "summons",
    "призывает": "summons",
    "takes-item": "takes_item",
    "takes_item": "takes_item",
    "сброс": "takes_item",
    "die": "die",
    "+1-die": "die",
    "+1 die": "die",
    "+1 кубик": "die",
    "кубик": "die",
    "single": "single",
    "single-use": "single",
    "разовый": "single",
}
SPELL_KIND_WORDS: dict[str, str] = {
    "permanent": "permanent",
    "p": "permanent",
    "постоянное": "permanent",
    "activated": "activated",
    "a": "activated",
    "активируемое": "activated",
}
TARGET_WORDS: dict[str, str] = {
    "self": "self",
    "себе": "self",
    "all": "all",
    "every": "all",
    "каждому": "all",
    "все": "all",
}

#: The example cards the rule text describes (as the text reads them: docs/rules/dark-tower.md).
#: Each is the JSON form a catalogue keeps (see :mod:`companion.games.dark_tower.rules.cards`).
BUILTIN: dict[str, dict[str, dict[str, Any]]] = {
    "hero": {
        "clan-champion": {
            "name": "Clan Champion",
            "ru": "Чемпион Клана",
            "health": 10,
            "bonus": [0, 0, 0],
            "spells": [
                {
                    "name": "Battle Cry",
                    "ru": "Боевой Клич",
                    "level": 1,
                    "kind": "permanent",
                    "bonus": 2,
                    "target": "all",
                },
                {
                    "name": "Heroic Valor",
                    "ru": "Героическая Отвага",
                    "level": 2,
                    "kind": "activated",
                    "bonus": 4,
                    "target": "self",
                    "cost": 1,
                },
                {
                    "name": "Armoring",
                    "ru": "Бронирование",
                    "level": 3,
                    "kind": "permanent",
                    "bonus": 6,
                    "target": "self",
                },
            ],
        }
    },
    "monster": {
        "gelatinous-cube": {
            "name": "Gelatinous Cube",
            "ru": "Желатиновый Куб",
            "floor": 1,
            "strength": 4,
            "takes_item": True,
        }
    },
    "obstacle": {},
    "item": {},
    "quest": {},
}
