"""The exact lock in requirements/ (requirements/lock.py) and the suite's layers."""

from __future__ import annotations

import importlib.util
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def load_lock() -> ModuleType:
    spec = importlib.util.spec_from_file_location("lock", ROOT / "requirements" / "lock.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["lock"] = module
    spec.loader.exec_module(module)
    return module


lock = load_lock()


@pytest.fixture
def copy(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of pyproject.toml and requirements/ to spoil."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copytree(ROOT / "requirements", tmp_path / "requirements")
    return tmp_path / "pyproject.toml", tmp_path / "requirements"


def test_the_repository_lock_matches_pyproject_and_pins_everything_with_hashes() -> None:
    lock.check()
    text = (ROOT / "requirements" / "test.txt").read_text()
    for name in ("starlette", "uvicorn", "pytest", "mypy", "redis", "asyncpg", "pytest-xdist"):
        assert f"\n{name}==" in text, name


def test_the_run_lock_holds_the_test_locks_versions() -> None:
    def pins(name: str) -> dict[str, str]:
        lines = (ROOT / "requirements" / name).read_text().splitlines()
        found = (lock.PIN.match(line) for line in lines)
        return {m.group(1): m.group(2) for m in found if m and ";" not in m.group(0)}

    run, test = pins("run.txt"), pins("test.txt")
    assert run and all(test[name] == version for name, version in run.items())


def test_a_changed_dependency_makes_the_lock_stale(copy: tuple[Path, Path]) -> None:
    pyproject, folder = copy
    pyproject.write_text(pyproject.read_text().replace('"brotli>=1.1,<2"', '"brotli>=1.2,<2"'))
    with pytest.raises(lock.LockError, match=r"not compiled from this pyproject\.toml"):
        lock.check(folder, pyproject)


def test_comments_and_tool_settings_do_not(copy: tuple[Path, Path]) -> None:
    pyproject, folder = copy
    text = pyproject.read_text() + "\n# a comment\n[tool.example]\nsetting = 1\n"
    pyproject.write_text(text.replace("line-length = 100", "line-length = 99"))
    lock.check(folder, pyproject)


@pytest.mark.parametrize(
    ("spoil", "says"),
    [
        (lambda text: text.replace("    --hash=sha256:", "    --hash=md5:", 1), "not a pin"),
        (lambda text: text.replace("--hash=sha256:", "--hash=sha256:zz", 1), "not a pin"),
        (lambda text: "\n".join(text.splitlines()[:-1]) + "\nstarlette>=1\n", "not a pin"),
        (lambda text: "\n".join(line for line in text.splitlines() if "pyproject-sha" not in line),
         "not compiled"),
    ],
)  # fmt: skip
def test_a_corrupt_lock_is_refused_with_the_line(
    copy: tuple[Path, Path], spoil: object, says: str
) -> None:
    pyproject, folder = copy
    path = folder / "test.txt"
    path.write_text(spoil(path.read_text()))  # type: ignore[operator]
    with pytest.raises(lock.LockError, match=says):
        lock.check(folder, pyproject)


def test_a_pin_without_a_hash_is_refused(copy: tuple[Path, Path]) -> None:
    pyproject, folder = copy
    path = folder / "run.txt"
    lines = [line for line in path.read_text().splitlines() if "--hash" not in line]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(lock.LockError, match=r"without a hash|no hash"):
        lock.check(folder, pyproject)


def test_a_missing_lock_stops_make_with_one_line(copy: tuple[Path, Path]) -> None:
    _, folder = copy
    (folder / "build.txt").unlink()
    shutil.copy(ROOT / "requirements" / "lock.py", folder / "lock.py")
    done = subprocess.run(
        [sys.executable, str(folder / "lock.py"), "check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "error: the lock in requirements/ is not usable: build.txt is missing; run `make lock`"
    ]


def test_a_unit_test_that_reaches_a_service_is_told_to_be_a_system_test() -> None:
    for port in (5432, 6379):
        # tests/conftest.py's ServiceInUnitTest, an AssertionError
        with socket.socket() as s, pytest.raises(AssertionError, match=r"pytest\.mark\.system"):
            s.connect(("127.0.0.1", port))
