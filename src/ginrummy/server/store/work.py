"""A unit of store work written once for every SQL driver: a generator of statements.

A store call is a generator that yields ``Statement`` and ``Many`` values and is sent
back each one's answer; its return value is the call's. A driver runs it where its
connection lives: SQLite on its writer thread (``run``), PostgreSQL on the event loop
(``run_async``). So the logic of a call (read a row, branch, write) is written once,
and a driver decides only how statements reach its database.

>>> def twice(n: int) -> Work[int]:
...     row = yield Statement("SELECT ?", (n,), "row")
...     return 2 * row[0]
>>> run(twice(21), lambda op: (op.args[0],))
42
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

T = TypeVar("T")

Want = Literal["count", "row", "rows"]


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement with ``?`` placeholders. Its answer: the rows it changed
    (``count``), its first row or None (``row``), or all its rows (``rows``)."""

    sql: str
    args: tuple[Any, ...] = ()
    want: Want = "count"


@dataclass(frozen=True, slots=True)
class Many:
    """One statement run for each of ``rows`` (no answer); nothing for no rows."""

    sql: str
    rows: Sequence[tuple[Any, ...]]


Op = Statement | Many
Work = Generator[Op, Any, T]


def count(sql: str, *args: Any) -> Work[int]:
    """How many rows ``sql`` changed."""
    changed: int = yield Statement(sql, args, "count")
    return changed


def row(sql: str, *args: Any) -> Work[Any]:
    """The first row of ``sql``'s answer, or None."""
    return (yield Statement(sql, args, "row"))


def rows(sql: str, *args: Any) -> Work[list[Any]]:
    """Every row of ``sql``'s answer."""
    answer: list[Any] = yield Statement(sql, args, "rows")
    return answer


def run(work: Work[T], execute: Callable[[Op], Any]) -> T:
    """``work``'s result, each of its statements answered by ``execute`` (blocking)."""
    try:
        op = next(work)
        while True:
            op = work.send(execute(op))
    except StopIteration as done:
        result: T = done.value
        return result


async def run_async(work: Work[T], execute: Callable[[Op], Awaitable[Any]]) -> T:
    """``work``'s result, each of its statements answered by awaiting ``execute``."""
    try:
        op = next(work)
        while True:
            op = work.send(await execute(op))
    except StopIteration as done:
        result: T = done.value
        return result
