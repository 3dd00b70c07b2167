"""A device's label in the account's list: its browser and system, from its User-Agent.

>>> device_label("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36")
'Chrome on Linux'
>>> device_label("")
'Browser'
"""

from __future__ import annotations

# The first mark found names it (Edge's and Chrome's agents also say Safari).
_BROWSERS = [
    ("Edg/", "Edge"),
    ("Firefox/", "Firefox"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
]
_SYSTEMS = [("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Windows", "Windows")]
_SYSTEMS += [("Mac OS X", "macOS"), ("Linux", "Linux")]


def device_label(user_agent: str) -> str:
    browser = next((name for mark, name in _BROWSERS if mark in user_agent), None)
    system = next((name for mark, name in _SYSTEMS if mark in user_agent), None)
    if browser is None:
        return "Browser" if system is None else f"Browser on {system}"
    return browser if system is None else f"{browser} on {system}"
