"""What a Russian reader must not meet: a Latin word outside a short list of exceptions, a number
written with a decimal point, a number whose noun has the wrong form.

The exceptions are the issue's (#24): the product's name, dice notation, command and option names as
typed, key names, format names, UTC and PID, ``--json``; and what the players typed themselves. A
command or game name is taken from the command tree and the games' list, not written here.
"""

from __future__ import annotations

import functools
import re

#: What a player typed stays as typed: the names of the players, a spell and a card typed in English.
TYPED = {"Bo", "Backstab", "Skeleton", "Rogue"}
#: Key names, format names, UTC and PID, and the notation of dice expressions and a roll's faces.
KEPT = {
    "companion", "Companion",  # the product
    "Enter", "Tab", "Ctrl", "Esc",  # keys
    "md", "html", "json", "lonelog", "Lonelog", "markdown", "JSON", "toml",  # formats
    "UTC", "PID", "SHA-256", "QR", "HTTP",  # SHA-256: a sealed session's hash; QR-код; a protocol
    "SIGTERM", "SIGHUP", "SIGINT",  # signal names, as the system names them
    "seat", "host", "read-only", "URL", "table", "my-run", "token",  # serve's door labels; examples' names
    "DR", "DC", "EC", "SR", "dt", "STR", "DEX", "INT", "heart", "star",  # dice expressions, faces typed
    "HP", "XP",  # the trackers' own names (their commands: hp, xp)
    "en", "ru", "virtual", "physical",  # values typed as such: --lang en|ru, mode virtual|physical
    "room", "skill", "events",  # table names in the examples of roll and odds
}  # fmt: skip
#: The other games' own titles, as ``companion --help`` lists their groups (they are played in English).
TITLES = re.compile(r"D&D The Haunted Tower|D&D The Dragon's Den|The Inverted Tower|The Adventure in the Dungeon")
NOTATION = [
    TITLES,
    re.compile(r"«[^»]*»"),  # what the player typed, quoted back
    re.compile(r"(?<![\w-])\d*d(?:t|\d+|N|%)\b(?:[<>]=?\d+)?|\bNd[Xt]\b"),  # dice: 4dt, 3dt>5, 2d6, 1dN, d%, NdX
    re.compile(r"\bCOMPANION_[A-Z]+\b|\bCtrl-[A-Z]\b"),  # environment variables, keys with Ctrl
    re.compile(r"\S*/\S+"),  # paths
    re.compile(r"\S+\.(?:md|html|json|toml|fish)\b"),  # file names
    re.compile(r"(?<![\w])--?[a-z][a-z-]*"),  # options
    # Lonelog's own symbols (its tags and rounds), kept in every language: [PC:Аня|HP-2|HP 8], [COMBAT], Rd1
    re.compile(r"\[/?(?:PC|N|F|R|Inv|Wealth|COMBAT|DUNGEON STATUS|RESOURCES)(?=[:\]])|\bRd\d+\b|\bHP[+-]\d+"),
    # a menu option's key made of the letters of the name it is (a player's name typed in Latin: 2. bo  Bo)
    re.compile(r"(?i)(?<=\d\. )([a-z]{2,4})(?=\s+\1)"),
]
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


@functools.cache
def typed_names() -> frozenset[str]:
    """Every name a player types: the commands and subcommands (the command tree's own), the games."""
    import importlib

    import typer

    from companion.cli.registry import COMMAND_MODULES
    from companion.games import ALIASES, COMMAND_GROUPS, GAMES
    from companion.shell.words import SHELL_WORDS

    names: set[str] = {*COMMAND_MODULES, *COMMAND_GROUPS, *GAMES, *ALIASES, *SHELL_WORDS}

    def walk(command) -> None:
        for name, sub in (getattr(command, "commands", None) or {}).items():
            names.add(name)
            walk(sub)

    for target in {*(m + ":app" for m in COMMAND_MODULES.values()), "companion.games.dark_tower.cli:app"}:
        module, _, attr = target.partition(":")
        walk(typer.main.get_command(getattr(importlib.import_module(module), attr)))
    return frozenset(names)


def latin_words(text: str) -> list[str]:
    """Latin-letter words of two letters or more, once notation, typed names and the exceptions are out."""
    found = []
    allowed = KEPT | TYPED | typed_names()
    for line in text.splitlines():
        for pattern in NOTATION:
            line = pattern.sub(" ", line)
        for word in re.findall(r"[\w'-]+", line):
            latin = [part for part in re.split(r"[^A-Za-z']+", word) if LATIN_WORD.search(part)]  # QR-код: QR
            if latin and word.strip("'-") not in allowed and not _game_name(word) and not set(latin) <= allowed:
                found.append(word)
    return found


def _game_name(word: str) -> bool:
    """A session's or a game's name as typed: dark-tower, dark-tower-1."""
    return re.fullmatch(r"[a-z-]+-\d+", word) is not None and word.rsplit("-", 1)[0] in typed_names()


DECIMAL_POINT = re.compile(r"\d\.\d")


def decimal_points(text: str) -> list[str]:
    """Numbers written with a point (Russian writes 93,8 and 0,21); a line each."""
    return [line.strip() for line in text.splitlines() if DECIMAL_POINT.search(ADDRESS.sub(" ", line))]


#: An address (http://127.0.0.1:8765/): its dots are no decimal points.
ADDRESS = re.compile(r"\S*://\S+|\b\d{1,3}(?:\.\d{1,3}){3}\b")


#: A number, then a noun whose form depends on it: the form Russian needs for that number.
FORMS = {
    "монстр": ("монстр", "монстра", "монстров"),
    "препятстви": ("препятствие", "препятствия", "препятствий"),
    "предмет": ("предмет", "предмета", "предметов"),
    "карт": ("карта", "карты", "карт"),
    "единиц": ("единицу", "единицы", "единиц"),
    "кубик": ("кубик", "кубика", "кубиков"),
    "действи": ("действие", "действия", "действий"),
    "игрок": ("игрок", "игрока", "игроков"),
}


def russian_form(n: int) -> int:
    if n % 10 == 1 and n % 100 != 11:
        return 0
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return 1
    return 2


def wrong_plurals(text: str) -> list[str]:
    bad = []
    for m in re.finditer(r"(?<![\d/.])(\d+) ([а-яё]+)", text):
        n, word = int(m.group(1)), m.group(2)
        for stem, forms in FORMS.items():
            known = word.startswith(stem) and word in {*forms, stem + "ы", stem + "а", stem + "и", stem + "ов"}
            if known and word != forms[russian_form(n)] and not (stem == "единиц" and word == "единица" and n == 1):
                bad.append(m.group(0))
    return bad
