"""Fast copies of frozen, slotted dataclasses agree with ``dataclasses.replace``."""

from __future__ import annotations

import dataclasses

import pytest

from ginrummy.engine.frozen import copier, maker


@dataclasses.dataclass(frozen=True, slots=True)
class Sample:
    name: str
    size: int
    tags: tuple[str, ...] = ()
    memo: int | None = dataclasses.field(default=None, compare=False)


def test_a_copy_keeps_every_field_but_the_changed_ones():
    copy = copier(Sample)
    old = Sample("a", 1, ("x",), memo=7)
    assert copy(old) == old
    assert copy(old).memo == 7
    new = copy(old, size=2, tags=())
    assert new == dataclasses.replace(old, size=2, tags=())
    assert (old.size, old.tags) == (1, ("x",))  # the original is untouched
    with pytest.raises(dataclasses.FrozenInstanceError):
        new.size = 3  # type: ignore[misc]


def test_reset_fields_go_back_to_their_default():
    copy = copier(Sample, reset=("memo",))
    assert copy(Sample("a", 1, memo=7), name="b") == Sample("b", 1)
    assert copy(Sample("a", 1, memo=7)).memo is None
    with pytest.raises(TypeError, match="memo"):
        copy(Sample("a", 1), memo=3)  # a reset field cannot be given


def test_unknown_fields_are_refused():
    with pytest.raises(TypeError, match="colour"):
        copier(Sample)(Sample("a", 1), colour="red")
    with pytest.raises(TypeError, match="cannot reset"):
        copier(Sample, reset=("size",))  # no default to reset to
    with pytest.raises(TypeError, match="cannot reset"):
        copier(Sample, reset=("colour",))


def test_a_maker_builds_from_every_field_in_order():
    make = maker(Sample)
    made = make("a", 1, ("x",), 7)
    assert made == Sample("a", 1, ("x",), 7)
    assert made.memo == 7
    with pytest.raises(TypeError):
        make("a", 1)  # no defaults: every field is given
