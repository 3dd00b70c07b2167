"""Help that tells the truth: ``ginrummy serve --help`` names every environment variable
the settings read, with its default; every option of ``ginrummy bench NAME`` and
``ginrummy arena`` has a help line; ``ginrummy bench --help`` lists the benches."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

import pytest

from ginrummy import cli
from ginrummy.server import flags
from ginrummy.server.main import parse_settings
from ginrummy.server.settings import Settings


class ReadVariables(Mapping[str, str]):
    """An empty environment that remembers every variable asked of it."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def __getitem__(self, name: str) -> str:
        self.asked.append(name)
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


def environment_variables() -> list[str]:
    """The variables ``Settings.from_env`` reads, from the code itself."""
    env = ReadVariables()
    Settings.from_env(env)
    return sorted(set(env.asked))


def help_of(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exited:
        cli.main(argv)
    assert exited.value.code == 0
    out: str = capsys.readouterr().out
    return out


def options(text: str) -> dict[str, str]:
    """Each option of an argparse help text and its help line(s), joined."""
    found: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        head = re.match(r"  (-\S.*?)(?:  +(\S.*))?$", line)
        if head:
            current = head.group(1)
            found[current] = head.group(2) or ""
        elif current is not None and re.match(r" {4,}\S", line):
            found[current] += " " + line.strip()
        else:
            current = None
    return found


def test_the_variables_are_read_from_the_code() -> None:
    names = environment_variables()
    assert {"GINRUMMY_PORT", "GINRUMMY_ROOM_IDLE_S", "GINRUMMY_LIMIT_SOCKETS"} <= set(names)
    assert {"DATABASE_URL", "REDIS_URL", "GINRUMMY_LOG_FORMAT"} <= set(names)


def test_serve_help_names_every_environment_variable(capsys: pytest.CaptureFixture[str]) -> None:
    text = help_of(["serve", "--help"], capsys)
    missing = [name for name in environment_variables() if not re.search(rf"\b{name}\b", text)]
    assert missing == []


def test_every_serve_option_has_its_variable_and_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    found = options(help_of(["serve", "--help"], capsys))
    assert "--room-idle-s SECONDS" in found and "--limit-sockets N" in found
    for option, text in found.items():
        if option.startswith("-h"):
            continue
        assert "env GINRUMMY_" in text or "env REDIS_URL" in text, option
        assert "default" in text, option
    assert "(default 300; env GINRUMMY_ROOM_IDLE_S)" in found["--room-idle-s SECONDS"]


def test_a_tuning_flag_sets_what_its_variable_sets() -> None:
    argv = ["--room-idle-s", "45", "--max-rooms", "200", "--limit-rooms", "0"]
    argv += ["--review-samples", "4", "--instance-id", "web-1"]
    env = {
        "GINRUMMY_ROOM_IDLE_S": "45",
        "GINRUMMY_MAX_ROOMS": "200",
        "GINRUMMY_LIMIT_ROOMS": "0",
        "GINRUMMY_REVIEW_SAMPLES": "4",
        "GINRUMMY_INSTANCE_ID": "web-1",
    }
    assert parse_settings(argv, Settings()) == parse_settings([], Settings.from_env(env))
    assert {t.flag for t in flags.TUNINGS} >= {"--room-idle-s", "--max-rooms", "--limit-rooms"}


def test_a_bad_tuning_flag_is_refused_by_its_name(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        parse_settings(["--max-rooms", "0"], Settings())
    assert exited.value.code == 2
    assert "--max-rooms must be at least 1" in capsys.readouterr().err


def test_bench_help_lists_the_benches(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bench", "--help"]) == 0
    text = capsys.readouterr().out
    for name in cli.BENCHES:
        assert re.search(rf"^  {name} +\S", text, re.MULTILINE), name


COMMANDS = [["bench", name] for name in cli.BENCHES] + [["arena"], ["arena", "--chouette"]]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_option_has_a_help_line(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    found = options(help_of([*command, "--help"], capsys))
    assert len(found) > 2
    assert [option for option, text in found.items() if not text.strip()] == []
