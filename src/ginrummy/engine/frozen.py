"""Fast copies and constructors of the engine's frozen, slotted dataclasses.

``dataclasses.replace`` calls ``__init__`` and looks every field up by name, and a
frozen ``__init__`` sets each field through ``object.__setattr__``; a state is copied
and a view is made for every action, which made this the engine's largest cost.
``copier(cls)`` builds, once, a function ``copy(obj, **changes)`` and ``maker(cls)`` a
function ``make(*values)`` (all fields, in order) that set each slot through its
descriptor, the way ``dataclasses`` builds ``__init__``: from generated source. Neither
runs ``__post_init__``: use them for classes without one.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True)
... class Point:
...     x: int
...     y: int
>>> copy = copier(Point)
>>> copy(Point(1, 2), y=5)
Point(x=1, y=5)
>>> maker(Point)(3, 4)
Point(x=3, y=4)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields
from typing import Any, TypeVar

T = TypeVar("T")

_KEEP: Any = object()  # "not given": keep the old value


def copier(cls: type[T], *, reset: tuple[str, ...] = ()) -> Callable[..., T]:
    """A ``copy(obj, **changes)`` for the frozen, slotted dataclass ``cls``; the fields
    in ``reset`` (memos) are set to their default instead of copied. An unknown field
    is a ``TypeError``, as with ``dataclasses.replace``."""
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    defaults = {f.name: f.default for f in fields(cls)}  # type: ignore[arg-type]
    unknown = [n for n in reset if defaults.get(n, MISSING) is MISSING]
    if unknown:
        raise TypeError(f"{cls.__name__}: cannot reset {unknown} (no such field with a default)")
    kept = [n for n in names if n not in reset]
    namespace: dict[str, Any] = {"_KEEP": _KEEP, "_object_new": object.__new__, "_cls": cls}
    lines = [f"def copy(_old, /, *, {', '.join(f'{n}=_KEEP' for n in kept)}):"]
    lines.append("    _copy = _object_new(_cls)")
    for n in names:
        namespace[f"_set_{n}"] = cls.__dict__[n].__set__
        if n in reset:
            namespace[f"_default_{n}"] = defaults[n]
            lines.append(f"    _set_{n}(_copy, _default_{n})")
        else:
            lines.append(f"    _set_{n}(_copy, _old.{n} if {n} is _KEEP else {n})")
    lines.append("    return _copy")
    exec("\n".join(lines), namespace)  # the source is built above from field names only
    copy: Callable[..., T] = namespace["copy"]
    copy.__qualname__ = f"copier({cls.__name__})"
    return copy


def maker(cls: type[T]) -> Callable[..., T]:
    """A ``make(*values)`` for the frozen, slotted dataclass ``cls``: one positional
    value per field, in field order, no defaults."""
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    namespace: dict[str, Any] = {"_object_new": object.__new__, "_cls": cls}
    lines = [f"def make({', '.join(names)}, /):", "    _made = _object_new(_cls)"]
    for n in names:
        namespace[f"_set_{n}"] = cls.__dict__[n].__set__
        lines.append(f"    _set_{n}(_made, {n})")
    lines.append("    return _made")
    exec("\n".join(lines), namespace)  # the source is built above from field names only
    make: Callable[..., T] = namespace["make"]
    make.__qualname__ = f"maker({cls.__name__})"
    return make
