"""User-facing words: the one place they are translated (gettext catalogues).

Every string a player reads goes through :func:`_` (or :func:`ngettext` for a number and its noun,
:func:`pgettext` for a word that takes another case or form, :func:`count` for "N things"). The
English text is the message id; a language is a compiled catalogue under
``companion/locale/<lang>/LC_MESSAGES/<domain>.mo``:

- ``companion.mo``: the shared words (status panel, prompts and key hints, dice and odds lines,
  errors, the markdown log);
- ``<game>.mo`` (e.g. ``dark-tower.mo``): one game's own words.

A game is played in a language when its own catalogue exists in that language; otherwise it stays
English. Adding a language, or a language to a game, is adding a catalogue (``scripts/i18n.py``).

The language a session is played in is chosen once, at ``companion new``: ``--lang``, else
``COMPANION_LANG``, else the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English
(:func:`choose`). The session keeps it, so its log and its replays read the same wherever they run.

English costs nothing: in English no catalogue is read and :mod:`gettext` is not imported; a
catalogue is loaded (once) when a session or a command needs another language.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

#: Where the compiled catalogues live (``<lang>/LC_MESSAGES/<domain>.mo``), next to their ``.po``.
LOCALE_DIR = Path(__file__).with_name("locale")
#: The domain of the words every game shares.
SHARED = "companion"
#: The language of the message ids.
SOURCE = "en"

_lang = SOURCE
_trans: Any = None  # a gettext.GNUTranslations chain (game, then shared) when not English
_loaded: dict[tuple[str, str | None], Any] = {}


def languages(game: str | None = None) -> list[str]:
    """The languages a game can be played in (English first): those with a catalogue for it."""
    found = [SOURCE]
    if LOCALE_DIR.is_dir():
        for d in sorted(LOCALE_DIR.iterdir()):
            if d.name != SOURCE and (d / "LC_MESSAGES" / f"{game or SHARED}.mo").is_file():
                found.append(d.name)
    return found


def requested(explicit: str | None = None) -> str | None:
    """The language asked for: ``explicit`` (``--lang``), else ``COMPANION_LANG``, else the locale."""
    for value in (explicit, os.environ.get("COMPANION_LANG")):
        if value and value.strip():
            return value.strip().lower()
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            # ru_RU.UTF-8 → ru; an English locale, C and POSIX ask for nothing in particular
            code = value.split(".")[0].split("_")[0].split("@")[0].lower()
            return None if code in ("c", "posix", SOURCE) else code
    return None


def choose(game: str | None, explicit: str | None = None) -> str | None:
    """The language to play ``game`` in: the one asked for when the game has it; None when none was
    asked for, or the game lacks it (English, and a game may still ask its players).

    A language given explicitly (``--lang``) that no game of companion speaks is an error;
    a locale or ``COMPANION_LANG`` the game lacks falls back quietly.
    """
    wanted = requested(explicit)
    if explicit is not None:
        wanted = explicit.strip().lower()
        every = set(languages(SHARED))
        if wanted not in every:
            from companion.errors import InputError

            raise InputError(
                _("{lang!r} is not a language companion speaks; use {known}").format(
                    lang=explicit, known=_(" or ").join(f"--lang {x}" for x in sorted(every))
                )
            )
    if wanted and wanted in languages(game):
        return wanted
    return None


def _load(lang: str, game: str | None) -> Any:
    key = (lang, game)
    if key not in _loaded:
        import gettext

        shared = gettext.translation(SHARED, LOCALE_DIR, languages=[lang], fallback=True)
        if game:
            own = gettext.translation(game, LOCALE_DIR, languages=[lang], fallback=True)
            own.add_fallback(shared)
            shared = own
        _loaded[key] = shared
    return _loaded[key]


def activate(lang: str | None, game: str | None = None) -> str:
    """Show the words in ``lang`` from now on (English when it is None or the game lacks it)."""
    global _lang, _trans
    lang = lang or SOURCE
    if lang != SOURCE and lang not in languages(game):
        lang = SOURCE
    _lang = lang
    _trans = None if lang == SOURCE else _load(lang, game)
    return lang


def language() -> str:
    """The language words are shown in now."""
    return _lang


class using:
    """Show words in another language for a while (e.g. one command's ``--lang``), then go back."""

    def __init__(self, lang: str | None, game: str | None = None) -> None:
        self.lang, self.game = lang, game

    def __enter__(self) -> str:
        self.saved = (_lang, _trans)
        return activate(self.lang, self.game)

    def __exit__(self, *exc: object) -> None:
        global _lang, _trans
        _lang, _trans = self.saved


class _Said(str):
    """A message in another language than English: its ``{x!r}`` quotes what was typed as that language
    quotes it (:func:`quote`: ``«Меч»``), where English keeps Python's ``'Меч'``."""

    __slots__ = ()

    def format(self, *args: Any, **kwargs: Any) -> str:
        return _formatter().vformat(self, args, kwargs)


_FORMATTER: Any = None


def _said(text: str, *english: str) -> str:
    """A translated message as :class:`_Said`; one the catalogue lacks stays English, quotes too."""
    return text if text in english else _Said(text)


def _formatter() -> Any:
    global _FORMATTER
    if _FORMATTER is None:
        _FORMATTER = formatter_class()()
    return _FORMATTER


def formatter_class() -> type:
    """The :class:`string.Formatter` a translated message is formatted with: ``{x!r}`` quotes as the
    language does (:func:`quote`), and a case in the format spec declines the value (``{player:дат}``,
    ``{item!r:вин}``: companion/declension.py), the placeholder's name saying whether it holds a person
    or a card. Subclassed by :func:`companion.cli.env.styled`."""
    import string

    class Formatter(string.Formatter):
        field: str | None = None

        def get_field(self, field_name: str, args: Any, kwargs: Any) -> Any:
            self.field = field_name.split(".")[0].split("[")[0]
            return super().get_field(field_name, args, kwargs)

        def convert_field(self, value: Any, conversion: str | None) -> Any:
            return (
                _Quoted(value)
                if conversion == "r" and isinstance(value, str)
                else super().convert_field(value, conversion)
            )

        def format_field(self, value: Any, format_spec: str) -> Any:
            return super().format_field(*said(value, format_spec, self.field))

    return Formatter


class _Quoted(str):
    """A value ``{x!r}`` quotes, kept unquoted until its case is known (a case declines, then quotes)."""

    __slots__ = ()


def said(value: Any, format_spec: str, field: str | None) -> tuple[Any, str]:
    """``value`` declined in the case ``format_spec`` names (``дат``) and quoted if it was ``!r``; the
    rest of the spec. A value that is not text is left to the spec."""
    case = None
    if format_spec and isinstance(value, str):
        from companion.declension import case_of, decline, preposition

        case, prep, format_spec = case_of(format_spec)
        if case is not None:
            declined = decline(str(value), case, field)
            quoted = isinstance(value, _Quoted) and type(declined).__name__ != "Construed"  # «предмет «X»»: once
            value = quote(declined) if quoted else str(declined)
            if prep:
                value = f"{preposition(prep, value)} {value}"
            return value, format_spec
    if isinstance(value, _Quoted):
        value = quote(str(value))
    return value, format_spec


def translated(template: str) -> bool:
    """Whether ``template`` is a message in another language than English (its ``!r`` and cases apply)."""
    return isinstance(template, _Said)


def converted(template: str, value: Any, conversion: str | None) -> Any:
    """``value`` under ``{x!conversion}`` as ``template.format`` converts it: in a translated message
    ``!r`` quotes as its language does, once the case is known (for formatters of their own,
    :func:`companion.cli.env.styled`, which then calls :func:`said`)."""
    if conversion == "r" and isinstance(template, _Said) and isinstance(value, str):
        return _Quoted(value)
    return {None: lambda v: v, "s": str, "r": repr, "a": ascii}[conversion](value)


def _(message: str) -> str:
    """``message`` (English) in the language shown now."""
    return message if _trans is None else _said(_trans.gettext(message), message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` (Russian has three: 1 монстр, 2 монстра, 5 монстров)."""
    if _trans is None:
        return singular if n == 1 else plural
    return _said(_trans.ngettext(singular, plural, n), singular, plural)


def pgettext(context: str, message: str) -> str:
    """``message`` in a context: the case or form a sentence needs (``pgettext("of", "health")``)."""
    return message if _trans is None else _said(_trans.pgettext(context, message), message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    if _trans is None:
        return singular if n == 1 else plural
    return _said(_trans.npgettext(context, singular, plural, n), singular, plural)


def count(n: int, singular: str, plural: str) -> str:
    """A number and its noun in the right form: ``count(5, "{n} monster", "{n} monsters")``."""
    return ngettext(singular, plural, n).format(n=n)


def possessive(name: object) -> str:
    """A name as its owner's, in English: ``Ann's``, ``Obsidian Knuckles'`` (the apostrophe alone after a
    final s). For the sentences of the games that speak English only; a translated sentence puts its
    owner in its own words (:func:`owned`)."""
    word = str(name)
    return word + ("'" if word[-1:] in ("s", "S") else "'s")


def owned(text: str, *names: object) -> str:
    """``text`` with each of ``names`` written as its owner's the way the language writes it. English
    puts the apostrophe alone after a name that ends in s (``Obsidian Knuckles' spells``, never
    ``Knuckles's``); a catalogue's sentence says ownership in its own words, and is left as it is.

    Use it around a sentence whose message puts ``'s`` after a name: ``owned(_("{card}'s spells").format(
    card=name), name)``."""
    if _lang != SOURCE:
        return text
    for name in names:
        word = str(name)
        if word[-1:] in ("s", "S"):
            text = text.replace(f"{word}'s", possessive(word))
    return text


def number(x: float, places: int = 0, *, group: bool = False) -> str:
    """``x`` with ``places`` decimals, as the language shown writes a number: ``0.21``, ``10,000`` in
    English; ``0,21``, ``10 000`` in Russian. The one place a number is formatted for the language: its
    decimal and group separators are the catalogue's (``pgettext("number", ".")``, ``(",")``)."""
    text = f"{x:,.{places}f}" if group else f"{x:.{places}f}"
    if _trans is None:
        return text
    point, comma = pgettext("number", "."), pgettext("number", ",")
    return "".join(point if c == "." else comma if c == "," else c for c in text)


def percent(x: float, places: int = 1, *, sign: str = "") -> str:
    """``x`` (a percentage, 93.75) as the language writes it: ``93.8%``; Russian ``93,8 %`` (a no-break
    space, so the sign never leaves its number at a line's end). ``sign`` goes before the number
    (``<0.1%``)."""
    n = sign + number(x, places)
    return n + "%" if _trans is None else pgettext("number", "{n}%").format(n=n)


def pair(label: object, value: object) -> str:
    """``1: 8.3%``, a label and its value, kept on one line where the language asks (a no-break space)."""
    if _trans is None:
        return f"{label}: {value}"
    return pgettext("pair", "{label}: {value}").format(label=label, value=value)


def quote(text: object) -> str:
    """What a player typed, quoted as the language quotes it: ``'Меч'`` in English (Python's repr, as
    ``{x!r}`` wrote it), ``«Меч»`` in Russian. Control characters stay escaped (``\\x1b``) in both."""
    shown = repr(str(text))
    if _trans is None:
        return shown
    return pgettext("quote", "'{text}'").format(text=shown[1:-1])


def did_you_mean(word: str, choices: Any) -> str | None:
    """ "did you mean X?" for the closest of ``choices`` to ``word``, or None."""
    from companion.errors import closest

    near = closest(word, choices)
    return _("did you mean {name}?").format(name=near) if near else None


class _Source:
    """The English words as they are (the message ids)."""

    @staticmethod
    def gettext(message: str) -> str:
        return message

    @staticmethod
    def ngettext(singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    @staticmethod
    def pgettext(context: str, message: str) -> str:
        return message


def translator(lang: str | None, game: str | None = None) -> Any:
    """The words of one language, whatever is shown now (``.gettext``, ``.ngettext``, ``.pgettext``)."""
    if not lang or lang == SOURCE or lang not in languages(game):
        return _Source
    return _load(lang, game)


def N_(message: str) -> str:
    """Mark a word for the catalogue where it is defined (a table of terms); translate it where shown."""
    return message


def for_state(state: Any) -> str:
    """Show words in a session's language: a game's own choice (``state.game.lang``), else the session's."""
    return activate(getattr(state.game, "lang", None) or getattr(state.meta, "lang", None), state.meta.game)
