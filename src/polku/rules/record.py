"""Small immutable value classes for the rules core: ``@record``.

A record is what ``@dataclass(frozen=True, slots=True)`` gives — fields from
the class annotations in order, defaults, ``__post_init__`` validation, value
equality and hashing, a readable repr, no assignment after construction — and
:func:`replace` / :func:`fields` work as their ``dataclasses`` namesakes.

Why not ``dataclasses``: importing it imports ``inspect`` (and ``ast``,
``dis``, ``tokenize``…), ~10 ms, and decorating a class costs more again. That
was a third of the time ``polku resolve`` may take from spawn to exit (issue 7:
≤ 3 × ``python -c pass``). This module imports nothing.

Supported, and nothing more: annotated fields (a base that is itself a
record contributes its fields first), plain defaults, ``factory(f)`` for a
default built per instance, ``__post_init__``. Annotations are never evaluated
(the rules modules use ``from __future__ import annotations``).
"""

from __future__ import annotations

__all__ = ["FrozenRecordError", "factory", "fields", "record", "replace"]


class FrozenRecordError(AttributeError):
    """Assignment to a field of a record (records never change)."""


class factory:  # noqa: N801 — reads as a function at the use site: ``x: T = factory(list)``
    """A default made by calling ``make()`` for each new instance."""

    __slots__ = ("make",)

    def __init__(self, make) -> None:
        self.make = make


def fields(obj_or_cls) -> tuple[str, ...]:
    """The field names of a record class or instance, in order."""
    try:
        return obj_or_cls.__record_fields__
    except AttributeError:
        raise TypeError(f"{obj_or_cls!r} is not a record") from None


def replace(obj, /, **changes):
    """A copy of ``obj`` with ``changes``; validated again like a new instance."""
    names = fields(obj)
    unknown = changes.keys() - set(names)
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field {sorted(unknown)[0]!r}")
    for name in names:
        if name not in changes:
            changes[name] = getattr(obj, name)
    return type(obj)(**changes)


def _setattr(self, name, value):
    raise FrozenRecordError(f"cannot assign to field {name!r}: {type(self).__name__} is immutable")


def _delattr(self, name):
    raise FrozenRecordError(f"cannot delete field {name!r}: {type(self).__name__} is immutable")


def _values(self) -> tuple:
    return tuple([getattr(self, n) for n in self.__record_fields__])


def _eq(self, other):
    if other.__class__ is self.__class__:
        return _values(self) == _values(other)
    return NotImplemented


def _hash(self) -> int:
    return hash(_values(self))


def _repr(self) -> str:
    inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__record_fields__)
    return f"{type(self).__qualname__}({inner})"


def _getstate(self) -> tuple:
    return _values(self)


def _setstate(self, state: tuple) -> None:
    for name, value in zip(self.__record_fields__, state):
        object.__setattr__(self, name, value)


_MISSING = object()


def record(cls):
    """Make ``cls`` an immutable, slotted value class (see the module docstring)."""
    own = list(cls.__dict__.get("__annotations__", {}))
    inherited: list[str] = []
    defaults: dict[str, object] = {}
    for base in reversed(cls.__mro__[1:]):
        for name in getattr(base, "__record_fields__", ()):
            if name not in inherited:
                inherited.append(name)
        defaults.update(getattr(base, "__record_defaults__", {}))
    names = tuple(inherited + [n for n in own if n not in inherited])

    ns = {k: v for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__")}
    for name in own:
        if name in ns:
            defaults[name] = ns.pop(name)

    # __init__ is generated once per class, so constructing a record costs what
    # a hand-written one would (rolls and replays make many).
    params, body = [], []
    glb: dict[str, object] = {"_set": object.__setattr__, "_factory": factory, "_MISSING": _MISSING}
    seen_default = False
    for name in names:
        default = defaults.get(name, _MISSING)
        if default is _MISSING:
            if seen_default:
                raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one with a default")
            params.append(name)
            body.append(f"_set(self, {name!r}, {name})")
        elif isinstance(default, factory):
            seen_default = True
            glb[f"_make_{name}"] = default.make
            params.append(f"{name}=_MISSING")
            body.append(f"_set(self, {name!r}, _make_{name}() if {name} is _MISSING else {name})")
        else:
            seen_default = True
            glb[f"_dflt_{name}"] = default
            params.append(f"{name}=_dflt_{name}")
            body.append(f"_set(self, {name!r}, {name})")
    if "__post_init__" in dir(cls):
        body.append("self.__post_init__()")
    src = f"def __init__(self, {', '.join(params)}):\n    " + "\n    ".join(body or ["pass"])
    exec(src, glb)  # noqa: S102 — source built above from the class's own field names
    init = glb["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"

    own_slots = tuple(n for n in names if n not in inherited)
    ns.update(
        __slots__=own_slots,
        __record_fields__=names,
        __record_defaults__=defaults,
        __match_args__=names,
        __init__=init,
        __setattr__=_setattr,
        __delattr__=_delattr,
        __eq__=_eq,
        __hash__=_hash,
        __getstate__=_getstate,
        __setstate__=_setstate,
    )
    if "__repr__" not in cls.__dict__:
        ns["__repr__"] = _repr
    return type(cls)(cls.__name__, cls.__bases__, ns)
