"""The words: gettext catalogues, Russian plurals, the language choice, the catalogues' own health."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from companion import i18n

ROOT = Path(__file__).resolve().parents[1]


def _script():
    spec = importlib.util.spec_from_file_location("i18n_script", ROOT / "scripts" / "i18n.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---- plurals -------------------------------------------------------------------------------------

RUSSIAN_FORMS = {1: 0, 2: 1, 5: 2, 11: 2, 21: 0, 22: 1, 25: 2, 12: 2, 14: 2, 104: 1, 111: 2, 0: 2}


@pytest.mark.parametrize("n", sorted(RUSSIAN_FORMS))
def test_the_plural_helper_gives_the_russian_form_for_each_number(n):
    monster = ("{n} монстр", "{n} монстра", "{n} монстров")[RUSSIAN_FORMS[n]].format(n=n)
    with i18n.using("ru", "dark-tower"):
        assert i18n.count(n, "{n} monster", "{n} monsters") == monster
        health = i18n.ngettext(
            "{player} loses {n} health ({why}) → {health}/{max}.",
            "{player} loses {n} health ({why}) → {health}/{max}.",
            n,
        ).format(player="Аня", n=n, why="Яма", health=1, max=10)
    word = ("единицу", "единицы", "единиц")[RUSSIAN_FORMS[n]]
    assert health == f"Яма: Аня теряет {n} {word} здоровья → 1/10."


@pytest.mark.parametrize("n", [1, 2, 5, 11, 21, 22, 25])
def test_english_has_two_forms(n):
    assert i18n.count(n, "{n} monster", "{n} monsters") == (f"{n} monster" if n == 1 else f"{n} monsters")


def test_the_catalogue_says_how_russian_counts():
    with i18n.using("ru", "dark-tower"):
        assert i18n._trans.plural(21) == 0 and i18n._trans.plural(22) == 1 and i18n._trans.plural(25) == 2


# ---- choosing the language -----------------------------------------------------------------------


def test_the_order_is_lang_then_companion_lang_then_the_locale(monkeypatch):
    assert i18n.choose("dark-tower") is None  # nothing asked: English, and the game may ask its players
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert i18n.choose("dark-tower") == "ru"
    monkeypatch.setenv("LC_ALL", "en_US.UTF-8")  # LC_ALL overrides LANG; an English locale asks nothing
    assert i18n.choose("dark-tower") is None
    monkeypatch.setenv("COMPANION_LANG", "ru")
    assert i18n.choose("dark-tower") == "ru"
    assert i18n.choose("dark-tower", "en") == "en"  # --lang comes first


def test_a_game_without_a_catalogue_stays_english(monkeypatch):
    monkeypatch.setenv("COMPANION_LANG", "ru")
    assert i18n.languages("inverted-tower") == ["en"]
    assert i18n.choose("inverted-tower") is None
    assert i18n.choose("inverted-tower", "ru") is None
    assert i18n.activate("ru", "inverted-tower") == "en" and i18n._("pass") == "pass"


def test_an_unknown_language_is_one_clear_line():
    from companion.errors import InputError

    with pytest.raises(InputError, match="'fr' is not a language companion speaks; use --lang en or --lang ru"):
        i18n.choose("dark-tower", "fr")


def test_adding_a_language_is_only_a_catalogue(tmp_path, monkeypatch):
    """A new language appears when its catalogue is there: no code lists the languages."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    for domain, text in (("companion", "réussite"), ("dark-tower", "Étage")):
        catalog = Catalog(locale="fr", domain=domain)
        catalog.add("pass" if domain == "companion" else "Floor", text)
        folder = tmp_path / "fr" / "LC_MESSAGES"
        folder.mkdir(parents=True, exist_ok=True)
        with (folder / f"{domain}.mo").open("wb") as f:
            write_mo(f, catalog)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(i18n, "_loaded", {})
    assert i18n.languages("dark-tower") == ["en", "fr"]
    assert i18n.choose("dark-tower", "fr") == "fr"
    with i18n.using("fr", "dark-tower"):
        assert i18n._("Floor") == "Étage" and i18n._("pass") == "réussite"  # the game's, then the shared words
        assert i18n._("Turn") == "Turn"  # what a catalogue lacks stays English


def test_english_reads_no_catalogue():
    i18n.activate("en", "dark-tower")
    assert i18n._trans is None and i18n._("Floor {n}") == "Floor {n}"
    code = (
        "import sys; from companion.cli.main import run; from companion import i18n\n"
        "try:\n    run()\nexcept SystemExit:\n    pass\n"
        "print('loaded', i18n._loaded, file=sys.stderr)"
    )
    p = subprocess.run(
        [sys.executable, "-c", code, "roll", "2d6"], capture_output=True, text=True, env={"LANG": "C.UTF-8"}
    )
    assert "loaded {}" in p.stderr, p.stderr


def test_a_russian_command_that_draws_no_help_never_loads_typers_rich_help():
    """typer.rich_utils (rich's markdown and all) is loaded only to draw help or an error panel; its
    panel words are set in the language shown when it is (companion.cli.help_words.panel_words)."""
    code = (
        "import sys\n"
        "from companion import i18n\n"
        "from companion.cli.help_words import panel_words\n"
        "i18n.activate('ru', 'dark-tower')\n"
        "panel_words()\n"
        "assert 'typer.rich_utils' not in sys.modules\n"
        "from typer import rich_utils\n"
        "print(rich_utils.OPTIONS_PANEL_TITLE, rich_utils.ARGUMENTS_PANEL_TITLE)\n"
        "i18n.activate('en')\n"
        "panel_words()\n"
        "print(rich_utils.OPTIONS_PANEL_TITLE)\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={"LANG": "C.UTF-8"})
    assert p.returncode == 0, p.stderr
    assert p.stdout.split("\n")[:2] == ["Параметры Аргументы", "Options"], p.stdout


# ---- the catalogues ------------------------------------------------------------------------------


def test_every_po_agrees_with_its_mo_and_every_word_is_translated(capsys):
    script = _script()
    assert script.po_files(), "no catalogue found"
    assert script.cmd_check() == 0, capsys.readouterr().out


def test_a_stale_mo_is_caught(tmp_path):
    """The check compares the messages themselves: a .mo compiled from another .po differs."""
    script = _script()
    lang, _domain, po = script.po_files()[0]
    catalog = script.read(po, lang)
    compiled = script.compiled_messages(catalog)
    first = next(m for m in catalog if m.id and isinstance(m.id, str) and m.string)
    first.string = first.string + "!"
    assert script.compiled_messages(catalog) != compiled


def test_the_mo_files_ship_in_the_wheel():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"*.mo"' in text
    for _lang, _domain, po in _script().po_files():
        assert po.with_suffix(".mo").is_file()


def test_placeholders_survive_translation():
    """A translation keeps the English message's {placeholders}, so .format() never fails."""
    import re

    script = _script()
    for lang, _domain, po in script.po_files():
        for m in script.read(po, lang):
            if not m.id:
                continue
            ids = m.id if isinstance(m.id, tuple) else (m.id,)
            strings = m.string if isinstance(m.string, tuple) else (m.string,)
            wanted = set(re.findall(r"\{(\w*)[!:}]", ids[-1]))
            for s in strings:
                got = set(re.findall(r"\{(\w*)[!:}]", s))
                assert got <= set(re.findall(r"\{(\w*)[!:}]", " ".join(ids))), (m.id, s)
                if len(ids) == 1:
                    # a message for one count (its context: one, two, ...) may say the number in words
                    counted = {"n"} if m.context in COUNTS else set()
                    assert wanted - counted <= got <= wanted, (m.id, s)


#: Contexts of a message said for one count only («За столом двое»: Russian's numerals for people).
COUNTS = ("one", "two", "three", "four")


def test_help_in_russian_then_in_english_in_one_process():
    """The shell (and an in-process test) may show a game's help in Russian, then in English: the
    help texts come back as written, not left translated."""
    from companion import i18n
    from tests.helpers import cli

    ru = cli("dark", "--help", env={"COMPANION_LANG": "ru"})
    assert ru.exit_code == 0 and "вводите карты" in ru.stdout, ru.stdout
    i18n.activate(None)
    en = cli("dark", "--help", env={"COMPANION_LANG": "en"})
    assert en.exit_code == 0, en.stderr
    assert "enter cards as they are drawn" in " ".join(en.stdout.split()) and "вводите" not in en.stdout, en.stdout
    assert "Usage:" in en.stdout and "Show this message and exit." in en.stdout


def test_dark_lang_en_shows_the_english_help_in_a_russian_session_and_ranges_read_as_words():
    """``dark --lang en COMMAND --help`` is English all through (not the session's help texts under
    English headings); a Russian --help says a number option's range in words, and a Russian error
    groups a big number as Russian does (99 999, not 99,999)."""
    from tests.helpers import cli

    def run(*args: str):
        i18n.activate(None)  # each command starts in English, as a new process does
        return cli(*args)

    assert run("new", "dark-tower", "--lang", "ru", "--seed", "3", "--name", "ru").exit_code == 0
    ru = run("dark", "odds", "--help")
    assert ru.exit_code == 0 and "Сколько кубиков" in ru.stdout, ru.stdout
    assert "[от\u00a01\u00a0до\u00a012]" in ru.stdout, ru.stdout
    assert "x<=" not in ru.stdout
    en = run("dark", "--lang", "en", "odds", "--help")
    assert en.exit_code == 0 and "Dice rolled" in en.stdout and "[1<=x<=12]" in en.stdout, en.stdout
    assert not any("а" <= ch <= "я" for ch in en.stdout.lower()), en.stdout
    bad = run("section", "abc")
    assert bad.exit_code == 2 and "от 1 до 99\u00a0999" in bad.stderr, bad.stderr
    assert run("new", "freeform", "--lang", "en", "--name", "en").exit_code == 0
    assert "from 1 to 99,999" in run("section", "abc").stderr  # English as it was


def test_the_shared_commands_speak_a_russian_session_from_their_first_line():
    """Mistakes found before the session is opened (a face not on the die) and the kit's own words
    are said in the session's language; an English session reads as before."""
    from tests.helpers import cli

    def run(*args: str):
        i18n.activate(None)  # each command starts in English, as a new process does
        return cli(*args)

    assert run("new", "dark-tower", "--lang", "ru", "--seed", "3", "--name", "ru").exit_code == 0
    bad = run("roll", "2d6", "--got", "9,9")
    assert bad.exit_code == 2 and "не грань кубика d6" in bad.stderr
    assert "записано в сессию «ru»" in run("roll", "2d6", "--got", "3,4").stdout
    assert "почему бросок исправлен" in run("amend", "--roll", "1", "--got", "3").stderr
    assert "у каждого героя своё Здоровье" in run("tally", "hit", "Аня").stderr  # the game's own command (#35)
    assert run("new", "dark-tower", "--lang", "en", "--seed", "3", "--name", "en").exit_code == 0
    assert "is not a face of a d6" in run("roll", "2d6", "--got", "9,9").stderr
    assert "recorded in en" in run("roll", "2d6", "--got", "3,4").stdout


# ---- every user-facing string is marked ----------------------------------------------------------


def test_the_check_finds_an_unmarked_string_and_passes_marked_ones_and_notation(tmp_path):
    """scripts/i18n.py check fails on a sentence given straight to an error, a printing call or the log
    (scripts/i18n_marks.py); what is marked, notation, a key or a value, and a line said as is pass."""
    import sys

    sys.path.insert(0, str(ROOT / "scripts"))
    from i18n_marks import unmarked

    source = tmp_path / "sample.py"
    source.write_text(
        "def f(env, state, name, r):\n"
        "    raise InputError(f'no card {name!r} is known')\n"  # 2: found
        "    env.print('Dice switched to physical.')\n"  # 3: found
        "    state.log.text('The end: ' + name)\n"  # 4: found
        "    env.echo(f'{name}: 4dt --got 1,h,6 companion dark fight')\n"  # notation only
        "    raise InputError(_('no card {name!r} is known').format(name=name))\n"  # marked
        "    r.choice(state.get('draw'), (*name, 'draw'), name)\n"  # a reader's key, not a request
        "    yield choice('fight.help', _('Call {p}?'), ('alone', _('Alone')))\n"  # a request: key, then words
        "    env.print('Nothing to see here')  # i18n: as is (a test)\n",
        encoding="utf-8",
    )
    found = unmarked([source], tmp_path)
    assert sorted({line.split(":")[1] for line in found}) == ["2", "3", "4"], found


def test_every_user_facing_string_of_a_domain_with_a_catalogue_is_marked():
    script = _script()
    assert script.unmarked() == []
