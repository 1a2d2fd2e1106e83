"""Russian declension: a name in the case the sentence needs («отдаёт Кольчугу Дмитрию»).

A translated message asks for a case in its placeholder's format spec (docs/translations.md):
``{player:дат}``, ``{item:вин}``, ``{monsters:твор}``; ``{name!r:род}`` declines, then quotes. The cases
are named as a Russian grammar names them: ``им``, ``род``, ``дат``, ``вин``, ``твор``, ``пр``.

The words come from pymorphy3 and its OpenCorpora dictionary (a maintained morphology library, not
string rules), imported the first time a Russian message declines something: no other language, and no
command that declines nothing, reads it. What the placeholder holds says how a name is declined:

- a person (``player``, ``other``, ``leader``, ``helper``, ``players``, ...): each word as a first name,
  a surname or the word a nickname is (Аня → Ане, Дмитрий → Дмитрию, Любовь → Любови, Нино stays Нино,
  Ёлка → Ёлке); a name the dictionary does not know, or one in Latin letters (Bo), stays as typed, which
  is how Russian treats a foreign name;
- a card (``item``, ``monster``, ``card``, ``hero``, ...): a name of several words by its head noun, its
  adjectives agreeing and what follows it kept («Амулет удачи» → «Амулета удачи», «Желатиновый Куб» →
  «Желатиновым Кубом»); monsters and heroes are alive (вин. «Скелета», as a player says it). A name that
  cannot be declined is said with its card's noun, the name in the nominative, quoted: «предмету
  «Sword»»;
- a list (``Аня, Bo``, ``Куб (4), Скелет (5)``): each name, what follows it in brackets kept.

The player's own spelling is kept: capital letters where they typed them, and ``ё`` only where they
typed it (Ёлка → Ёлке, Елка → Елке).

A form once found is kept in ``<data>/cache/declension-ru.json``, so a later command reads it there and
loads no dictionary (see :func:`cache_path`).
"""

from __future__ import annotations

import functools
import re
from typing import Any

#: The cases a message may ask for, as a Russian grammar names them, and pymorphy3's grammemes.
CASES = {
    "им": "nomn",
    "род": "gent",
    "дат": "datv",
    "вин": "accs",
    "твор": "ablt",
    "пр": "loct",
}
#: A placeholder's name → how its value is declined: "person", or a card's noun (for the fallback
#: construction) and whether it is alive.
KINDS: dict[str, tuple[str, bool]] = {
    "item": ("предмет", False),
    "items": ("предмет", False),
    "other_item": ("предмет", False),
    "monster": ("монстр", True),
    "monsters": ("монстр", True),
    "group": ("монстр", True),
    "card": ("карта", False),
    "cards": ("карта", False),
    "obstacle": ("препятствие", False),
    "hero": ("персонаж", True),
    "heroes": ("персонаж", True),
    "spell": ("заклинание", False),
    "quest": ("квест", False),
    "die": ("кубик", False),
    "held": ("предмет", False),
    "have": ("предмет", False),
}
PERSON = ("", True)

_MORPH: Any = None
_MISSING = False


def analyzer() -> Any:
    """pymorphy3's analyzer with the Russian dictionary, loaded once; None when it is not installed."""
    global _MORPH, _MISSING
    if _MORPH is None and not _MISSING:
        try:
            import pymorphy3
        except ImportError:  # pragma: no cover - a dependency; without it names stay in the nominative
            _MISSING = True
            return None
        _MORPH = pymorphy3.MorphAnalyzer(lang="ru")
    return _MORPH


#: Prepositions that take another form before some words (со Скелетом, ко Льву, во Владимире, об Ане):
#: a spec may name one before its case (``{monsters:с твор}``), and it is said as the word needs.
PREPOSITIONS = ("с", "к", "в", "о")


def case_of(spec: str) -> tuple[str | None, str, str]:
    """The case a format spec asks for (``дат``), the preposition before it (``с`` in ``с твор``, or
    ""), and what is left of the spec; (None, "", spec) for no case."""
    head, _sep, rest = spec.partition(":")
    prep, space, case = head.partition(" ")
    if space and prep in PREPOSITIONS and case in CASES:
        return CASES[case], prep, rest
    if head in CASES:
        return CASES[head], "", rest
    return None, "", spec


def preposition(prep: str, word: str) -> str:
    """``prep`` in the form the next ``word`` needs: с → со (со Скелетом, со Змеем), к → ко (ко Льву),
    в → во (во Владимире), о → об (об Ане)."""
    w = word.lstrip("«\"'(").lower()
    consonants = "бвгджзйклмнпрстфхцчшщ"
    two = len(w) > 1 and w[1] in consonants
    if prep == "с" and ((w[:1] in "сзшжщ" and two) or w.startswith("мн")):
        return "со"
    if prep == "к" and ((w[:1] in "кг" and two) or w.startswith(("мн", "вс", "льв", "льд"))):
        return "ко"
    if prep == "в" and ((w[:1] in "вф" and two) or w.startswith("мн")):
        return "во"
    if prep == "о" and w[:1] in "аоуэиы":
        return "об"
    return prep


def kind_of(field: str | None) -> tuple[str, bool]:
    """How the value of placeholder ``field`` is declined: a person unless its name says a card."""
    name = (field or "").lower()
    if name in KINDS:
        return KINDS[name]
    for key, kind in KINDS.items():
        if name.endswith("_" + key) or name.startswith(key + "_"):
            return kind
    return PERSON


class Construed(str):
    """A name said with its card's noun (предмету «Sword»): already quoted."""

    __slots__ = ()


def decline(text: str, case: str, field: str | None = None) -> str:
    """``text`` (a name, or names separated by commas) in ``case`` (pymorphy3's ``datv``, or ``дат``)."""
    case = CASES.get(case, case)
    if case == "nomn" or not text.strip():
        return text
    noun, alive = kind_of(field)
    return _decline(text, case, noun, alive)


@functools.lru_cache(maxsize=4096)
def _decline(text: str, case: str, noun: str, alive: bool) -> str:
    key = f"{case}|{noun}|{int(alive)}|{text}"
    known = _said().get(key)
    if isinstance(known, list) and len(known) == 2:
        return Construed(known[0]) if known[1] else str(known[0])
    parts = _names(text)
    out = [part if i % 2 else _one(part, case, noun, alive) for i, part in enumerate(parts)]
    whole = "".join(out)
    construed = len(out) == 1 and isinstance(out[0], Construed)
    if not _MISSING:
        _remember(key, [whole, construed])
    return Construed(whole) if construed else whole


# ---- what was said before ------------------------------------------------------------------------
# Loading the dictionary takes ~0.3 s; a one-shot command in a Russian session would pay it on every
# run for the same few names. Each form found is kept in a small file next to the saves
# (``<data>/cache/declension-ru.json``, a cache: deleting it costs only the next load), so a name is
# looked up in the dictionary once, and later commands read the form from the file.

_SAID: dict[str, Any] | None = None
_NEW: dict[str, Any] = {}


def cache_path() -> Any:
    """Where the forms found are kept: the data folder's ``cache/`` (``COMPANION_HOME``, else the user
    data folder, as companion.store.paths finds it)."""
    import os
    from pathlib import Path

    home = os.environ.get("COMPANION_HOME")
    if not home:
        import platformdirs

        home = platformdirs.user_data_dir("companion", appauthor=False)
    return Path(home).expanduser() / "cache" / "declension-ru.json"


def _said() -> dict[str, Any]:
    global _SAID
    if _SAID is None:
        import json

        try:
            data = json.loads(cache_path().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        _SAID = data if isinstance(data, dict) else {}
    return _SAID


_WHERE: list[Any] = []


def _remember(key: str, value: list[Any]) -> None:
    if not _NEW:
        import atexit

        _WHERE.append(cache_path())  # the data folder of the command that found it, not the one at exit
        atexit.register(_save)
    _NEW[key] = value
    _said()[key] = value


def _save() -> None:
    """Add the forms found to the file (read again first: another command may have added some), written
    whole to a temporary file and renamed into place; a failure costs only a later lookup."""
    import json
    import os

    path = _WHERE[0] if _WHERE else cache_path()
    if not path.parent.parent.is_dir():
        return  # the data folder is gone (a test's): nothing to keep the forms in
    try:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        data = {**(data if isinstance(data, dict) else {}), **_NEW}
        if len(data) > 20000:  # never grows without end: the newest forms are kept
            data = dict(list(data.items())[-10000:])
        path.parent.mkdir(exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass


_SEPARATOR = re.compile(r", | и | \+ ")


def _names(text: str) -> list[str]:
    """``text`` cut into names and the separators between them (``, ``, `` и ``, `` + ``), never inside
    brackets («Меч (Оружие, +2)» is one name)."""
    out, start, depth = [], 0, 0
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif depth == 0:
            m = _SEPARATOR.match(text, i)
            if m:
                out += [text[start:i], m.group(0)]
                start = i = m.end()
                continue
        i += 1
    return [*out, text[start:]]


def _one(text: str, case: str, noun: str, alive: bool) -> str:
    """One name in ``case``: what follows it in brackets (``Куб (4)``) is kept as it is."""
    m = re.match(r"^(\s*)(.*?)(\s*[(\[].*)?$", text, re.S)
    assert m is not None
    lead, name, tail = m.group(1), m.group(2), m.group(3) or ""
    if not name:
        return text
    if re.fullmatch(r"\d*d\d+|\d+", name):
        return text  # dice notation (d6) and numbers are the same in every case
    morph = analyzer()
    said = None if morph is None else (_person(morph, name, case) if not noun else _card(morph, name, case, alive))
    if said is None:
        if not noun:
            return text
        return Construed(f"{lead}{_noun(morph, noun, case, alive)} «{name}»{tail}")
    return lead + said + tail


def _nominative(morph: Any, word: str, want: str | None = None) -> Any:
    """The parse of ``word`` as a nominative singular (of part of speech ``want``), the likeliest first."""
    found = [p for p in morph.parse(word.lower()) if {"nomn"} <= p.tag.grammemes and "LATN" not in p.tag]
    if want:
        found = [p for p in found if want == p.tag.POS]
    sing = [p for p in found if "plur" not in p.tag.grammemes]
    return (sing or found or [None])[0]


def _person(morph: Any, name: str, case: str) -> str | None:
    """A person's name, each word as a first name, surname or patronymic; None when none of it declines."""
    words = name.split(" ")
    out, declined = [], False
    for word in words:
        parses = [
            p
            for p in morph.parse(word.lower())
            if "nomn" in p.tag.grammemes and "plur" not in p.tag.grammemes and p.tag.POS == "NOUN"
        ]
        named = [p for p in parses if {"Name", "Surn", "Patr"} & p.tag.grammemes]
        best = (named or parses or [None])[0]  # a name, else the word a nickname is (Ёлка → Ёлке)
        if best is None or not _cyrillic(word):
            out.append(word)
            continue
        form = best.inflect({case})
        if form is None:
            out.append(word)
            continue
        out.append(_spelled(word, form.word))
        declined = True
    return " ".join(out) if declined else None


def _card(morph: Any, name: str, case: str, alive: bool) -> str | None:
    """A card's name by its head noun: the adjectives before it agree, the words after it stay."""
    words = name.split(" ")
    if not all(_cyrillic(w) for w in words):
        return None
    head = None
    for i, word in enumerate(words):
        parse = _nominative(morph, word, "NOUN")
        if parse is not None:
            head = i
            break
        if _nominative(morph, word, "ADJF") is None and _nominative(morph, word, "PRTF") is None:
            return None  # a word that is neither an adjective nor the noun before the noun
    if head is None:
        return None
    noun = _nominative(morph, words[head], "NOUN")
    grammemes = _target(noun, case, alive)
    form = _inflect(noun, grammemes)
    if form is None:
        return None
    out = []
    for word in words[:head]:
        adj = _nominative(morph, word, "ADJF") or _nominative(morph, word, "PRTF")
        agreed = adj.inflect(_agreeing(noun, grammemes))
        if agreed is None:
            return None
        out.append(_spelled(word, agreed.word))
    out.append(_spelled(words[head], form.word))
    out += words[head + 1 :]
    return " ".join(out)


def _target(noun: Any, case: str, alive: bool) -> set[str]:
    """The grammemes of the head noun's form: ``case``, its number; an accusative of a monster or a hero
    is the animate one (вин. «Скелета», «Тролля»), whatever the dictionary says of the word itself."""
    number = "plur" if "plur" in noun.tag.grammemes else "sing"
    grammemes = noun.tag.grammemes
    if case == "accs" and alive and "inan" in grammemes and (number == "plur" or "masc" in grammemes):
        accs = noun.inflect({"accs", number})
        nomn = noun.inflect({"nomn", number})
        if accs is not None and nomn is not None and accs.word == nomn.word:
            return {"gent", number}
    return {case, number}


def _agreeing(noun: Any, grammemes: set[str]) -> set[str]:
    """The grammemes an adjective takes before ``noun`` in that form (gender, number, case, animacy)."""
    out = set(grammemes)
    if "sing" in out:
        gender = next((g for g in ("masc", "femn", "neut") if g in noun.tag.grammemes), "masc")
        out.add(gender)
    if "accs" in out:
        out.add("anim" if "anim" in noun.tag.grammemes else "inan")
    return out


def _inflect(parse: Any, grammemes: set[str]) -> Any:
    if "Fixd" in parse.tag.grammemes:
        return parse  # indeclinable: the same in every case
    return parse.inflect(grammemes)


def _noun(morph: Any, noun: str, case: str, alive: bool) -> str:
    """A card's noun in ``case`` (предмет → предмету), for a name that does not decline."""
    if morph is None:
        return noun
    parse = _nominative(morph, noun, "NOUN")
    form = None if parse is None else _inflect(parse, _target(parse, case, alive))
    return noun if form is None else form.word


def _cyrillic(word: str) -> bool:
    return bool(re.fullmatch(r"[А-Яа-яЁё]+(?:-[А-Яа-яЁё]+)*", word))


def _spelled(original: str, word: str) -> str:
    """``word`` (pymorphy3's, lower case) spelled as the player spelled ``original``: their capitals
    (each part of a hyphenated name), and ё only where they wrote it."""
    if "ё" not in original.lower():
        word = word.replace("ё", "е")
    if original.isupper() and len(original) > 1:
        return word.upper()
    theirs, ours = original.split("-"), word.split("-")
    if len(theirs) != len(ours):
        return word[:1].upper() + word[1:] if original[:1].isupper() else word
    return "-".join(o[:1].upper() + o[1:] if t[:1].isupper() else o for t, o in zip(theirs, ours, strict=True))
