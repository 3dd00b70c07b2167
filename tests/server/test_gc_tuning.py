"""The server tunes the garbage collector before it serves: fewer, larger collections,
and the objects of start-up frozen out of every collection."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from ginrummy.server.main import GC_THRESHOLDS, tune_gc


@pytest.fixture
def restore_gc() -> Iterator[None]:
    before = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*before)


@pytest.mark.usefixtures("restore_gc")
def test_tune_gc_freezes_start_up_and_raises_the_thresholds() -> None:
    gc.unfreeze()
    tune_gc()
    assert gc.get_threshold() == GC_THRESHOLDS
    assert GC_THRESHOLDS[0] > 700  # well above CPython's default first threshold
    assert gc.get_freeze_count() > 0
