"""What a log line is about: the request, room and seat being handled, kept in a context
variable where a request, a socket or a room command is handled and put on every log
record by ``ContextFilter`` (docs/operations.md, "Logs").

A context variable follows the code that handles something, task by task: a task
started while a socket's room is bound (its forwarder) keeps that room; another
request's task never sees it.

>>> with log_context(room="ab12", seat="one"):
...     current().room, current().seat
('ab12', 'one')
>>> current().room is None
True
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, replace


@dataclass(frozen=True, slots=True)
class LogFields:
    """The request id, room id and seat (a label, or a chouette position) at hand."""

    request_id: str | None = None
    room: str | None = None
    seat: str | None = None


NAMES = ("request_id", "room", "seat")
"""The fields as attributes of a log record (``ContextFilter``)."""

NOTHING = LogFields()  # frozen: one default for every context
_fields: ContextVar[LogFields] = ContextVar("ginrummy_log_fields", default=NOTHING)


def current() -> LogFields:
    """The fields of the code running now."""
    return _fields.get()


@contextlib.contextmanager
def log_context(
    *, request_id: str | None = None, room: str | None = None, seat: str | None = None
) -> Iterator[None]:
    """Within the block, log records carry the fields given (None: as they were)."""
    token = _fields.set(_changed(current(), request_id, room, seat))
    try:
        yield
    finally:
        _fields.reset(token)


def note_room(room: str) -> None:
    """The rest of the running task (an HTTP request's) is about ``room``; the
    request's ``log_context`` ends it with the request."""
    _fields.set(_changed(current(), None, room, None))


def _changed(
    fields: LogFields, request_id: str | None, room: str | None, seat: str | None
) -> LogFields:
    return replace(
        fields,
        request_id=request_id or fields.request_id,
        room=room or fields.room,
        seat=seat or fields.seat,
    )


class ContextFilter(logging.Filter):
    """Puts the fields at hand on each record (``record.room`` ...), for the formatter;
    a field the call gave itself (``extra=``) is kept."""

    def filter(self, record: logging.LogRecord) -> bool:
        fields = current()
        for name in NAMES:
            if getattr(record, name, None) is None:
                setattr(record, name, getattr(fields, name))
        return True
