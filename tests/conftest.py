"""Suite-wide hooks."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Playwright's sync API keeps an event loop running in the main thread for the rest
    # of the session; asyncio tests must therefore run before any browser test.
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
