"""Suite-wide hooks: every test belongs to one layer by its cost (README, "Development").

- ``browser``: drives Chromium through Playwright against a server process
  (everything under ``tests/browser``);
- ``system``: starts a server or a live uvicorn, needs PostgreSQL or Redis, runs a
  bench, or runs a long differential test against Node; marked in its module
  (``pytestmark = pytest.mark.system``) or on the test;
- ``unit``: everything else, the default: in-process, no service, no server. ``make
  quick`` runs this layer, so a unit test that reaches for PostgreSQL or Redis fails
  at once with a line saying to mark it ``system``.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest

# What each test costs, when GINRUMMY_TEST_COSTS names a file (tests/suite_costs.py).
pytest_plugins = ["suite_costs"]

LAYERS = ("unit", "system", "browser")
SERVICE_PORTS = {5432: "PostgreSQL", 6379: "Redis"}


class ServiceInUnitTest(AssertionError):
    """A test of the unit layer tried to reach a service of the system layer."""


def layer_of(item: pytest.Item) -> str:
    marked = [name for name in LAYERS if item.get_closest_marker(name) is not None]
    if len(marked) > 1:
        raise pytest.UsageError(f"{item.nodeid} is in more than one layer: {marked}")
    return marked[0] if marked else "unit"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        layer = layer_of(item)
        if item.get_closest_marker(layer) is None:
            item.add_marker(layer)
    # The costly layers first: pytest-xdist hands out modules in this order, and many
    # short unit tests at the end keep both workers busy until the last one ends.
    items.sort(key=lambda item: LAYERS.index(layer_of(item)), reverse=True)


@pytest.fixture(autouse=True)
def _unit_tests_reach_no_service(request: pytest.FixtureRequest) -> Iterator[None]:
    if request.node.get_closest_marker("unit") is None:
        yield
        return
    connect = socket.socket.connect
    connect_ex = socket.socket.connect_ex

    def refuse(address: Any) -> None:
        port = address[1] if isinstance(address, tuple) and len(address) >= 2 else None
        if port in SERVICE_PORTS:
            raise ServiceInUnitTest(
                f"a unit test reached {SERVICE_PORTS[port]} (port {port}): "
                "mark it pytest.mark.system (tests/conftest.py)"
            )

    def guarded_connect(self: socket.socket, address: Any) -> None:
        refuse(address)
        connect(self, address)

    def guarded_connect_ex(self: socket.socket, address: Any) -> int:
        refuse(address)
        return connect_ex(self, address)

    socket.socket.connect = guarded_connect  # type: ignore[method-assign]
    socket.socket.connect_ex = guarded_connect_ex  # type: ignore[method-assign]
    try:
        yield
    finally:
        socket.socket.connect = connect  # type: ignore[method-assign]
        socket.socket.connect_ex = connect_ex  # type: ignore[method-assign]
