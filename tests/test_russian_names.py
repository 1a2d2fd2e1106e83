"""Names in the case a Russian sentence needs (companion/declension.py, docs/translations.md): players'
names of every gender and declension type, a card of several words, a name the dictionary does not know."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.declension import decline, preposition

#: name → (родительный, дательный, винительный, творительный, предложный)
PEOPLE = {
    "Аня": ("Ани", "Ане", "Аню", "Аней", "Ане"),  # feminine, -я
    "Оля": ("Оли", "Оле", "Олю", "Олей", "Оле"),
    "Дмитрий": ("Дмитрия", "Дмитрию", "Дмитрия", "Дмитрием", "Дмитрии"),  # masculine, -ий
    "Саша": ("Саши", "Саше", "Сашу", "Сашей", "Саше"),  # either gender, -а
    "Игорь": ("Игоря", "Игорю", "Игоря", "Игорем", "Игоре"),  # masculine, soft sign
    "Любовь": ("Любови", "Любови", "Любовь", "Любовью", "Любови"),  # the name, not «любви»
    "Нино": ("Нино",) * 5,  # indeclinable
    "Лев": ("Льва", "Льву", "Льва", "Львом", "Льве"),  # a vowel that drops
    "Ёлка": ("Ёлки", "Ёлке", "Ёлку", "Ёлкой", "Ёлке"),  # a nickname keeps its ё
    "Елка": ("Елки", "Елке", "Елку", "Елкой", "Елке"),  # ...and gains none
    "Анна Петрова": ("Анны Петровой", "Анне Петровой", "Анну Петрову", "Анной Петровой", "Анне Петровой"),
    "Bo": ("Bo",) * 5,  # Latin letters: as typed, as Russian leaves a foreign name
}
CARDS = {
    ("Кольчуга", "item"): ("Кольчуги", "Кольчуге", "Кольчугу", "Кольчугой", "Кольчуге"),
    ("Амулет удачи", "item"): ("Амулета удачи", "Амулету удачи", "Амулет удачи", "Амулетом удачи", "Амулете удачи"),
    ("Желатиновый Куб", "monster"): (  # a monster is alive: вин. = род.
        "Желатинового Куба", "Желатиновому Кубу", "Желатинового Куба", "Желатиновым Кубом", "Желатиновом Кубе",
    ),
    ("Скелет", "monster"): ("Скелета", "Скелету", "Скелета", "Скелетом", "Скелете"),
    ("Обсидиановый кастет", "item"): (
        "Обсидианового кастета", "Обсидиановому кастету", "Обсидиановый кастет", "Обсидиановым кастетом",
        "Обсидиановом кастете",
    ),
    ("Sword", "item"): (
        "предмета «Sword»", "предмету «Sword»", "предмет «Sword»", "предметом «Sword»", "предмете «Sword»",
    ),
    ("Лич", "monster"): ("монстра «Лич»", "монстру «Лич»", "монстра «Лич»", "монстром «Лич»", "монстре «Лич»"),
}  # fmt: skip
CASES = ("род", "дат", "вин", "твор", "пр")


@pytest.mark.parametrize("name", PEOPLE)
def test_a_players_name_in_every_case(name):
    assert tuple(decline(name, case, "player") for case in CASES) == PEOPLE[name]


@pytest.mark.parametrize(("name", "field"), CARDS)
def test_a_cards_name_in_every_case(name, field):
    assert tuple(decline(name, case, field) for case in CASES) == CARDS[name, field]


def test_a_list_declines_each_name_and_keeps_what_is_in_brackets():
    assert decline("Шаман (3) + Тролль (9)", "твор", "monsters") == "Шаманом (3) + Троллем (9)"
    assert decline("Аня, Bo и Оля", "род", "players") == "Ани, Bo и Оли"
    assert decline("Меч (Оружие, +2)", "вин", "item") == "Меч (Оружие, +2)"


def test_a_preposition_takes_the_form_the_word_needs():
    assert [preposition("с", w) for w in ("Скелетом", "Шаманом", "Аней", "Змеем")] == ["со", "с", "с", "со"]
    assert [preposition("к", w) for w in ("Льву", "Ане")] == ["ко", "к"]
    assert [preposition("о", w) for w in ("Ане", "Дмитрии")] == ["об", "о"]


def test_a_translated_message_declines_by_its_placeholders():
    with i18n.using("ru", "dark-tower"):
        say = i18n._Said("{player} отдаёт {item:вин} {other:дат}; у {player:род}; {player} сражается {monsters:с твор}")
        assert say.format(player="Оля", item="Амулет удачи", other="Любовь", monsters="Скелет (5)") == (
            "Оля отдаёт Амулет удачи Любови; у Оли; Оля сражается со Скелетом (5)"
        )
        quoted = i18n._Said("нет {item!r:род}; нет {other_item!r:род}").format(item="Кольчуга", other_item="Sword")
        assert quoted == "нет «Кольчуги»; нет предмета «Sword»"  # the fallback is quoted once


def test_english_is_untouched():
    with i18n.using("en"):
        assert "{player} gives {item}".format(player="Оля", item="Кольчуга") == "Оля gives Кольчуга"
        assert (
            i18n._("{player} gives {item} to {other} (usable from their next turn).")
            .format(player="Оля", item="Кольчуга", other="Дмитрий")
            .startswith("Оля gives Кольчуга to Дмитрий")
        )


def test_the_dictionary_is_read_only_where_a_name_is_declined_and_once(tmp_path):
    """pymorphy3 is imported by no English command, and in a Russian session only by the first
    command that declines a name; the next ones read the form from the data folder's cache."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
    env.update(COMPANION_HOME=str(tmp_path / "home"), COMPANION_LOGS=str(tmp_path / "logs"), LANG="C.UTF-8")

    def run(*args: str) -> tuple[str, bool]:
        p = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "companion", *args], env=env, capture_output=True, text=True
        )
        assert p.returncode == 0, p.stderr[-2000:]
        return p.stdout, "pymorphy3" in p.stderr

    for name, lang in (("en", "1"), ("ru", "2")):
        run("new", "dark-tower", "--name", name, "--seed", "5")
        for answer in (lang, "=table"):
            run("-s", name, "next", answer)
    said, loaded = run("-s", "en", "next", "Оля")
    assert "Оля's hero" in said and not loaded
    said, loaded = run("-s", "ru", "next", "Оля")
    assert "Персонаж Оли" in said and loaded  # the first time: the dictionary
    said, loaded = run("-s", "ru", "next")
    assert "Персонаж Оли" in said and not loaded  # then the cache
    assert (tmp_path / "home" / "cache" / "declension-ru.json").is_file()


def test_a_session_named_yolka_keeps_its_yo(tmp_path):
    """A session's file name keeps ё and й (Ёлка is «ёлка», not «елка»); a session named before that
    (in a folder «елка») is still found by its name."""
    from companion.store.paths import legacy_name, safe_name
    from companion.store.sessions import SESSION_FILE, Store

    assert safe_name("Ёлка") == "ёлка" and safe_name("Йод и ёж") == "йод-и-ёж" and safe_name("Café") == "cafe"
    assert legacy_name("Ёлка") == "елка"
    store = Store(tmp_path)
    (store.root / "елка").mkdir(parents=True)
    (store.root / "елка" / SESSION_FILE).write_text("{}", encoding="utf-8")
    assert store.files("Ёлка").dir.name == "елка"
