"""The translation catalogues: extract the English words, update each language's ``.po``, compile ``.mo``.

    python scripts/i18n.py extract      # companion/locale/<domain>.pot from the code (Babel)
    python scripts/i18n.py update       # merge the .pot into every companion/locale/<lang>/LC_MESSAGES/<domain>.po
    python scripts/i18n.py compile      # .po → .mo (the wheel ships the .mo)
    python scripts/i18n.py check        # exit 1 when a message has no translation, a .mo is stale, or a
                                        # user-facing string is not marked (scripts/i18n_marks.py)
    python scripts/i18n.py init LANG    # start a new language (then translate its .po and compile)

Domains: ``companion`` holds the words every game shares (everything outside ``companion/games/<game>/``),
and each game with a catalogue has its own (``dark-tower`` from ``companion/games/dark_tower/``).
A new game's domain is one line in ``GAME_DOMAINS``. Babel is a development tool here: at run time
companion reads the ``.mo`` with the standard library's :mod:`gettext`.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "companion"
LOCALE = PACKAGE / "locale"
#: Game domain → the game's package folder.
GAME_DOMAINS = {"dark-tower": PACKAGE / "games" / "dark_tower"}
SHARED = "companion"
#: Domain → its command trees, whose help texts and usage names are messages too
#: (companion/cli/help_words.py): a game's own group; the root and every shared command for the rest.
COMMANDS = {
    "dark-tower": ["companion.games.dark_tower.cli:app"],
    SHARED: ["companion.cli.app:app", "companion.cli.fight_cmds:app"],
}
KEYWORDS = {**DEFAULT_KEYWORDS, "count": (2, 3)}


def sources(domain: str) -> list[Path]:
    if domain in GAME_DOMAINS:
        return sorted(GAME_DOMAINS[domain].rglob("*.py"))
    games = PACKAGE / "games"
    return sorted(p for p in PACKAGE.rglob("*.py") if games not in p.parents or p.parent == games)


def templates(domain: str) -> list[Path]:
    """The Jinja2 templates whose words are in ``domain`` (the pages' words are shared)."""
    return sorted(PACKAGE.rglob("templates/*.j2")) if domain == SHARED else []


#: How the templates are read: Jinja2's own extractor, with the page's settings (companion/export/html.py).
TEMPLATE_OPTIONS = {"trim_blocks": "true", "lstrip_blocks": "true", "extensions": "jinja2.ext.i18n"}


def extract(domain: str) -> Catalog:
    catalog = Catalog(project="companion", domain=domain, charset="utf-8")
    found = [("python", path, None) for path in sources(domain)]
    found += [("jinja2.ext:babel_extract", path, TEMPLATE_OPTIONS) for path in templates(domain)]
    for method, path, options in found:
        rel = path.relative_to(ROOT).as_posix()
        for lineno, message, comments, context in extract_from_file(
            method, str(path), keywords=KEYWORDS, comment_tags=("TRANSLATORS:",), options=options
        ):
            catalog.add(message, None, [(rel, lineno)], auto_comments=comments, context=context)
    for target in command_trees(domain):
        where = [(target.replace(":", " "), 0)]
        texts, names = help_texts(target)
        for text in texts:
            catalog.add(text, None, where, auto_comments=["--help"])
        for name in names:
            catalog.add(name, None, where, auto_comments=["--help: a name in the usage line"], context="metavar")
    if domain == SHARED:  # companion --help lists every game's group by its own help's first sentence
        for name, text in group_help().items():
            catalog.add(text, None, [(f"companion --help: {name}", 0)], auto_comments=["companion --help"])
    return catalog


def group_help() -> dict[str, str]:
    """Each game group's help as ``companion --help`` lists it."""
    sys.path.insert(0, str(ROOT))
    from companion.cli.group import _short_help
    from companion.games import COMMAND_GROUPS

    return {name: _short_help(name) for name in COMMAND_GROUPS}


def command_trees(domain: str) -> list[str]:
    """The typer apps (``module:attribute``) whose help is in ``domain``."""
    trees = list(COMMANDS.get(domain, []))
    if domain == SHARED:
        sys.path.insert(0, str(ROOT))
        from companion.cli.registry import COMMAND_MODULES

        trees += [f"{module}:app" for module in dict.fromkeys(COMMAND_MODULES.values())]
    return trees


def help_texts(target: str) -> tuple[list[str], list[str]]:
    """The help texts of a typer app (``module:attribute``) as ``--help`` shows them, and the words of
    its usage names (``{kind}``, ``<int>``, ``[OPTIONS]``)."""
    import importlib

    import typer

    sys.path.insert(0, str(ROOT))
    from companion.cli.help_words import metavars, texts

    module, _sep, attr = target.partition(":")
    command = typer.main.get_command(getattr(importlib.import_module(module), attr))
    return texts(command), metavars(command)


def domains() -> list[str]:
    return [SHARED, *GAME_DOMAINS]


def po_files() -> list[tuple[str, str, Path]]:
    out = []
    for lang_dir in sorted(p for p in LOCALE.iterdir() if p.is_dir()):
        for domain in domains():
            po = lang_dir / "LC_MESSAGES" / f"{domain}.po"
            if po.is_file():
                out.append((lang_dir.name, domain, po))
    return out


def read(po: Path, lang: str) -> Catalog:
    with po.open("rb") as f:
        return read_po(f, locale=lang)


def write(po: Path, catalog: Catalog) -> None:
    with po.open("wb") as f:
        write_po(f, catalog, width=120, sort_output=False, omit_header=False, include_lineno=False)


def cmd_extract() -> None:
    LOCALE.mkdir(exist_ok=True)
    for domain in domains():
        pot = LOCALE / f"{domain}.pot"
        with pot.open("wb") as f:
            catalog = extract(domain)
            write_po(f, catalog, width=120, include_lineno=False)
        print(f"{pot.relative_to(ROOT)}: {len(catalog)} messages")


def cmd_update() -> None:
    for lang, domain, po in po_files():
        catalog = read(po, lang)
        created = catalog.creation_date  # kept: a date that moves on every update makes every merge conflict
        catalog.update(extract(domain), no_fuzzy_matching=True)
        catalog.creation_date = created
        catalog.obsolete.clear()
        write(po, catalog)
        missing = sum(1 for m in catalog if m.id and not _translated(m))
        print(f"{po.relative_to(ROOT)}: {len(catalog)} messages, {missing} untranslated")


def cmd_init(lang: str) -> None:
    for domain in domains():
        po = LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"
        if po.exists():
            continue
        po.parent.mkdir(parents=True, exist_ok=True)
        catalog = extract(domain)
        catalog.locale = lang  # type: ignore[assignment]
        write(po, catalog)
        print(f"{po.relative_to(ROOT)}: started")


def cmd_compile() -> None:
    for lang, _domain, po in po_files():
        catalog = read(po, lang)
        with po.with_suffix(".mo").open("wb") as f:
            write_mo(f, catalog, use_fuzzy=False)
        print(f"{po.with_suffix('.mo').relative_to(ROOT)} written")


def _translated(message) -> bool:
    s = message.string
    return all(s) if isinstance(s, (tuple, list)) else bool(s)


def _t(value):
    return tuple(value) if isinstance(value, (list, tuple)) else value


def compiled_messages(catalog: Catalog) -> set[tuple]:
    """What a .mo holds of a catalogue: every translated, not fuzzy message (id, context, text)."""
    return {(_t(m.id), m.context, _t(m.string)) for m in catalog if m.id and _translated(m) and not m.fuzzy}


def unmarked() -> list[str]:
    """The user-facing strings of every domain with a catalogue that are not marked for it."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from i18n_marks import unmarked as find

    return find([path for domain in domains() for path in sources(domain)], ROOT)


def cmd_check() -> int:
    bad = 0
    for line in unmarked():
        bad += 1
        print(f"{line}: not marked for the catalogue: wrap it in _() (docs/translations.md)")
    for lang, domain, po in po_files():
        catalog = read(po, lang)
        wanted = {m.id if isinstance(m.id, str) else m.id[0]: m for m in extract(domain) if m.id}
        have = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id and _translated(m) and not m.fuzzy}
        for key in wanted:
            if key not in have:
                bad += 1
                print(f"{po.relative_to(ROOT)}: untranslated (or fuzzy): {key!r}")
        mo = po.with_suffix(".mo")
        if not mo.is_file():
            bad += 1
            print(f"{mo.relative_to(ROOT)}: missing (python scripts/i18n.py compile)")
            continue
        with mo.open("rb") as f:
            compiled = read_mo(f)
        if compiled_messages(compiled) != compiled_messages(catalog):
            bad += 1
            print(f"{mo.relative_to(ROOT)}: differs from its .po (python scripts/i18n.py compile)")
    return 1 if bad else 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("extract", "update", "compile", "check", "init"):
        print(__doc__)
        return 2
    if argv[0] == "extract":
        cmd_extract()
    elif argv[0] == "update":
        cmd_update()
    elif argv[0] == "compile":
        cmd_compile()
    elif argv[0] == "init":
        cmd_init(argv[1])
    else:
        return cmd_check()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
