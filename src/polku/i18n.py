"""Polku's words in the reader's language: English or Finnish, from gettext catalogues.

Base layer: it imports only the standard library, so every layer may use it (the
rules core too). Nothing here reads the preferences: the front ends do
(:mod:`polku.config` is above this module) and pass the configured language to
:func:`choose`, then :func:`set_language`.

Writing a visible string:

- ``_("Roll for {name}", name=ch["name"])``: the whole sentence is one message, its
  variable parts named placeholders (``str.format`` fields), never a sentence glued
  from translated pieces (Finnish inflects the words around a name or a number).
- ``ngettext("{n} die", "{n} dice", n)``: a count; ``n`` is a placeholder by itself.
- ``pgettext("key", "Edit")``: the same English word meaning two things.
- ``N_("Quit")``: marks a message for the catalogue without translating it, for text
  declared at import time (a key's description, a group's title); whoever shows it
  passes it through :func:`_` then, so a language switched in the app takes effect.

The catalogues are ``locale/<lang>/LC_MESSAGES/polku.mo`` beside this module, loaded at
most once each per process (the first message asked in that language) and kept.
English is the messages themselves: no catalogue is read and ``gettext`` is not even imported
(the headless verbs stay lean). Nobody need choose before the first message: it chooses then, from
the environment (``POLKU_LANG``, the locale); the apps set the language first, with the
preference they read anyway (:func:`polku.config.use_language`).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import gettext as _gettext
    from collections.abc import Mapping, Sequence

DOMAIN = "polku"
"""The catalogues' name: ``locale/<lang>/LC_MESSAGES/polku.mo``."""

LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")

DEFAULT = "en"
LANGUAGES = {"en": "English", "fi": "suomi"}
"""The languages Polku speaks, each named in itself (as a language menu lists them)."""

ENV_VAR = "POLKU_LANG"
LOCALE_VARS = ("LC_ALL", "LC_MESSAGES", "LANG")
"""The locale's variables in POSIX order: the first one set decides."""

_loaded: dict[str, _gettext.NullTranslations] = {}
_current: _gettext.NullTranslations | None = None
"""The catalogue in use; None for English (the messages themselves)."""
_language: str | None = None


def normalise(value: object) -> str | None:
    """A language code Polku speaks from a preference or a locale name, else ``None``.

    ``fi``, ``FI``, ``fi_FI.UTF-8``, ``fi-FI``, ``suomi`` → ``fi``; ``en_GB``, ``C``, ``POSIX`` →
    ``en``; ``de_DE`` or anything else → ``None``.
    """
    if not isinstance(value, str):
        return None
    text = value.strip()
    if text in ("C", "POSIX") or text.startswith("C."):
        return "en"
    code = text.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    if code in LANGUAGES:
        return code
    for lang, name in LANGUAGES.items():
        if text.lower() == name.lower():
            return lang
    return None


def choose(configured: object = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: the preference, else ``POLKU_LANG``, else the locale, else English.

    A preference or ``POLKU_LANG`` naming a language Polku does not speak is passed over.
    Of the locale's variables the first one set decides (``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``): a Finnish locale gives Finnish, any other English.
    """
    env = os.environ if environ is None else environ
    for wanted in (configured, env.get(ENV_VAR)):
        lang = normalise(wanted)
        if lang is not None:
            return lang
    for var in LOCALE_VARS:
        value = env.get(var)
        if value:
            return normalise(value) or DEFAULT
    return DEFAULT


def translations(lang: str) -> _gettext.NullTranslations:
    """The catalogue of ``lang``, read once and kept (a missing file: none, the messages themselves)."""
    found = _loaded.get(lang)
    if found is None:
        import gettext

        found = gettext.NullTranslations()
        try:
            with open(os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", f"{DOMAIN}.mo"), "rb") as file:
                found = gettext.GNUTranslations(file)
        except OSError:
            pass
        _loaded[lang] = found
    return found


def set_language(lang: str) -> str:
    """Speak ``lang`` from now on (an unknown code: English). Returns the code in use."""
    global _current, _language
    code = normalise(lang) or DEFAULT
    _current = None if code == DEFAULT else translations(code)
    _language = code
    return code


def language() -> str:
    """The language in use (chosen from the environment at the first question, if nobody set one)."""
    if _language is None:
        set_language(choose())
    assert _language is not None
    return _language


def _(message: str, /, **values: object) -> str:
    """``message`` in the language in use, its ``{placeholders}`` filled from ``values``."""
    if _language is None:
        language()
    text = message if _current is None else _current.gettext(message)
    return text.format(**values) if values else text


def ngettext(singular: str, plural: str, n: int, /, **values: object) -> str:
    """The form of a counted message that agrees with ``n``; ``{n}`` is filled in too."""
    if _language is None:
        language()
    if _current is None:
        text = singular if n == 1 else plural
    else:
        text = _current.ngettext(singular, plural, n)
    return text.format(n=n, **values)


def pgettext(context: str, message: str, /, **values: object) -> str:
    """Like :func:`_`, for an English message that means one thing in ``context``."""
    if _language is None:
        language()
    text = message if _current is None else _current.pgettext(context, message)
    return text.format(**values) if values else text


def decimal(value: float, digits: int | None = 1, /, *, plus: bool = False) -> str:
    """``value`` with ``digits`` decimals, written with the decimal sign of the language in use (``2.5``,
    Finnish ``2,5``; the catalogue's "decimal sign"). For text a person reads; a number printed for a machine
    (JSON) stays a number."""
    # digits None: as few as it takes (2.5, 3); plus: the sign always (+0.50, -0.25)
    spec = ("+" if plus else "") + ("g" if digits is None else f".{digits}f")
    text = format(value, spec)
    sign = pgettext("decimal sign", ".")
    return text if sign == "." else text.replace(".", sign)


def and_list(items: Sequence[object], /) -> str:
    """``items`` as a list in the language in use, its last two joined by the language's "and": ``a, b and c``
    (``a, b ja c``). The one place a list of names is joined for a sentence (the sentence around it is one
    message with the list as a placeholder: ``_("{flags} are different questions…", flags=and_list(flags))``)."""
    names = [str(i) for i in items]
    if len(names) < 2:
        return "".join(names)
    return _("{items} and {last}", items=", ".join(names[:-1]), last=names[-1])


class _English:
    """The messages themselves whatever the language in use (``i18n.ENGLISH._``, ``.ngettext``): for words
    stored in a file or printed for a machine, which stay English. The module itself speaks the language in use
    with the same two calls, so a function given either (``say(t)``) words one sentence both ways."""

    @staticmethod
    def _(message: str, /, **values: object) -> str:
        return message.format(**values) if values else message

    @staticmethod
    def ngettext(singular: str, plural: str, n: int, /, **values: object) -> str:
        return (singular if n == 1 else plural).format(n=n, **values)


ENGLISH = _English()
"""English always (see :class:`_English`); the module :mod:`polku.i18n` is the language in use."""


def N_(message: str, /) -> str:
    """Mark ``message`` for the catalogue; it is translated where it is shown (by :func:`_`)."""
    return message


Words = tuple[str, dict[str, str | int]]
"""A catalogue message (English, marked ``N_``) and the values it is worded with (:class:`Said` keeps them)."""

PublishedWords = list[str | dict[str, str | int]]
"""Words as a file or an answer publishes them (JSON): ``[message, {values}]`` (:func:`tell` reads them)."""


class Said(str):
    """An English line that keeps the catalogue message and the values it was worded from (``.words``), so a
    reader elsewhere (a player's seat, given it in an answer) tells it again in their own language
    (:func:`retell`). It is the English text wherever a plain ``str`` is expected (a log line, an error)."""

    words: Words


def said(message: str, /, **values: str | int) -> Said:
    """``message`` (marked ``N_``) worded in English with ``values``, keeping both (:class:`Said`)."""
    out = Said(message.format(**values) if values else message)
    out.words = (message, dict(values))
    return out


def words_of(text: object) -> Words | None:
    """The catalogue message and values ``text`` was worded from (a :class:`Said`), else None."""
    return getattr(text, "words", None) if isinstance(text, Said) else None


def retell(text: object) -> str:
    """Words made by :func:`said` in the language in use (a value made by :func:`said` too); other text as it is."""
    words = words_of(text)
    if words is None or language() == DEFAULT:
        return str(text)
    return _(words[0], **{k: retell(v) for k, v in words[1].items()})


def said_list(items: Sequence[object], sep: str = ", ") -> Said:
    """``items`` joined with ``sep`` (English), each told again in the reader's language by :func:`retell` (an
    item made by :func:`said` is; another is shown as it is)."""
    names = [f"i{k}" for k in range(len(items))]
    return said(sep.join("{" + n + "}" for n in names), **{n: i if isinstance(i, (str, int)) else str(i)
                                                           for n, i in zip(names, items, strict=True)})


def told_error(e: BaseException) -> str:
    """An error's line in the language in use: its first argument told again (:func:`retell`) when it is a
    :class:`Said` or a message the catalogue has (marked ``N_``), else ``str`` of it as Python makes it."""
    if len(e.args) == 1 and isinstance(e.args[0], str):
        first = e.args[0]
        if isinstance(first, Said):
            return retell(first)
        return _(first) if first and language() != DEFAULT else first
    return Exception.__str__(e)


def shown(text: object) -> str:
    """A line the rules core or the session made (a reason, a refusal) in the language in use: told again when
    made by :func:`said`, translated when the catalogue has it (marked ``N_``), else as it is."""
    if isinstance(text, Said):
        return retell(text)
    line = str(text)
    return _(line) if line and language() != DEFAULT else line


def tell(words: object, fallback: str = "") -> str:
    """Published words (``[message, {values}]``, as :func:`words_of` gave them) in the language in use; without
    readable words, ``fallback`` itself translated when the catalogue has it (a message without values), else
    as it is."""
    if (isinstance(words, (list, tuple)) and len(words) == 2 and isinstance(words[0], str)
            and isinstance(words[1], dict) and all(isinstance(k, str) and isinstance(v, (str, int))
                                                    for k, v in words[1].items())):
        try:
            return _(words[0], **words[1])
        except (KeyError, IndexError, ValueError):
            pass
    return _(fallback) if fallback else ""


__all__ = ["DEFAULT", "DOMAIN", "ENGLISH", "LANGUAGES", "LOCALE_DIR", "N_", "PublishedWords", "Said", "Words", "_", "and_list",
           "choose",
           "language", "ngettext", "normalise", "pgettext", "retell", "said", "said_list", "set_language", "shown", "tell",
           "told_error", "translations", "words_of"]
