"""Reading TOML: fast where the text is good, tomllib's words where it is not.

Every TOML read (session files, event blocks, themes, the config) goes
through :func:`loads`. It parses with ``rtoml`` (the Rust ``toml`` crate), ~10×
faster than the standard library's pure-Python ``tomllib`` on Polku's files
(the demo session's 17 event blocks: 2.6 ms → 0.2 ms; a 10,000-event file:
2.4 s → 0.6 s) and returns the same values. When ``rtoml`` rejects the text,
``tomllib`` parses it again: it may accept what ``rtoml`` cannot (nesting
deeper than ~80), and otherwise its error — which names the line and column —
is the one the user reads, as :class:`TOMLDecodeError`.

``rtoml`` is lenient where TOML 1.1 is (newlines inside an inline table); such
text is read, never written (``tomli_w`` writes the files). Without ``rtoml``
installed (``pip install --no-deps``) everything works on ``tomllib`` alone.
"""

from __future__ import annotations

from typing import Any, BinaryIO, Callable

_fast_loads: Callable[[str], dict[str, Any]] | None
try:
    from rtoml import loads as _fast_loads
except ImportError:  # pragma: no cover - rtoml is a dependency; this keeps a --no-deps install working
    _fast_loads = None


class TOMLDecodeError(ValueError):
    """The text is not TOML; the message is tomllib's, with line and column."""


def loads(text: str) -> dict[str, Any]:
    """Parse TOML text into plain dicts, lists and scalars.

    Raises:
        TOMLDecodeError: the text is not TOML.
    """
    if _fast_loads is not None:
        try:
            return _fast_loads(text)
        except Exception:  # noqa: BLE001 — any refusal: tomllib gives the verdict and the message
            pass
    import tomllib  # only for bad (or unusual) text

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise TOMLDecodeError(str(e)) from None


def load(file: BinaryIO) -> dict[str, Any]:
    """Parse a TOML file opened in binary mode (UTF-8, as TOML requires).

    Raises:
        TOMLDecodeError: not TOML. UnicodeDecodeError: not UTF-8 text.
    """
    return loads(file.read().decode("utf-8"))
