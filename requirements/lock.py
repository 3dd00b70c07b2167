"""The exact lock of every Python dependency: write it (`make lock`) or check it (`make test`).

Three files, each `uv pip compile` output with hashes, resolved once for every platform
(`--universal`) and for Python 3.11 and later:

- ``build.txt``: pip, and the build backend of ``[build-system] requires``;
- ``test.txt``: the package's dependencies with every extra (the tests, both backends,
  the benches);
- ``run.txt``: the package's own dependencies, held to the versions of ``test.txt`` so
  that ``make run`` serves with exactly what the tests ran with.

Each file carries a stamp, ``# pyproject-sha256: ...``, of the dependency declarations
of ``pyproject.toml`` it was compiled from. ``check`` recomputes it: a lock that is
missing, unreadable, unhashed or compiled from other declarations stops the install with
one line that says which and what to run. Standard library only: it runs before the
virtual environment exists.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
PYPROJECT = HERE.parent / "pyproject.toml"
LOCKS = ("build.txt", "test.txt", "run.txt")
STAMP = "# pyproject-sha256: "
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+?)(?: ;.*)? \\$")
HASH = re.compile(r"^    --hash=sha256:[0-9a-f]{64}(?: \\)?$")
BUILD_TOOLS = ("pip>=24",)


class LockError(Exception):
    """The lock cannot be used as it is; the message says what to do."""


def declarations(pyproject: Path = PYPROJECT) -> dict[str, object]:
    """What the lock is compiled from: every requirement pyproject.toml declares."""
    data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    project = data["project"]
    return {
        "requires-python": project.get("requires-python", ""),
        "dependencies": sorted(project.get("dependencies", [])),
        "optional-dependencies": {
            name: sorted(reqs) for name, reqs in project.get("optional-dependencies", {}).items()
        },
        "build-system": sorted(data.get("build-system", {}).get("requires", [])),
        "build-tools": list(BUILD_TOOLS),
    }


def digest(pyproject: Path = PYPROJECT) -> str:
    """A digest of the declarations alone: comments and layout do not change it."""
    canon = json.dumps(declarations(pyproject), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canon.encode()).hexdigest()


def check_file(path: Path, want: str) -> int:
    """Check one lock file; return how many packages it pins."""
    if not path.is_file():
        raise LockError(f"{path.name} is missing")
    lines = path.read_text(encoding="utf-8").splitlines()
    stamps = [line.removeprefix(STAMP) for line in lines if line.startswith(STAMP)]
    if stamps != [want]:
        raise LockError(f"{path.name} was not compiled from this pyproject.toml")
    pins = 0
    hashed = True
    for number, line in enumerate(lines, 1):
        if not line or line.startswith("#") or line.lstrip().startswith("# "):
            continue
        if PIN.match(line):
            if not hashed:
                raise LockError(f"{path.name}:{number - 1}: a pin without a hash")
            pins += 1
            hashed = False
        elif HASH.match(line):
            hashed = True
        else:
            raise LockError(f"{path.name}:{number}: not a pin or a hash: {line[:60]!r}")
    if not hashed:
        raise LockError(f"{path.name}: the last pin has no hash")
    if pins == 0:
        raise LockError(f"{path.name} pins nothing")
    return pins


def check(folder: Path = HERE, pyproject: Path = PYPROJECT) -> None:
    """Raise LockError unless every lock file is whole and matches pyproject.toml."""
    want = digest(pyproject)
    for name in LOCKS:
        check_file(folder / name, want)


def write(uv: str, folder: Path = HERE, pyproject: Path = PYPROJECT) -> None:
    """Resolve again from pyproject.toml (newest versions within its ranges) and stamp."""
    build = tomllib.loads(pyproject.read_text(encoding="utf-8"))["build-system"]["requires"]
    common = ["pip", "compile", "--universal", "--python-version", "3.11", "--generate-hashes"]
    common += ["--no-header", "--quiet"]
    with tempfile.TemporaryDirectory() as tmp:
        build_in = Path(tmp) / "build.in"
        build_in.write_text("\n".join([*BUILD_TOOLS, *build]) + "\n")
        jobs = [
            ("build.txt", [str(build_in)]),
            ("test.txt", [str(pyproject), "--all-extras"]),
            ("run.txt", [str(pyproject), "-c", str(folder / "test.txt")]),
        ]
        stamp = digest(pyproject)
        for name, args in jobs:
            out = folder / name
            subprocess.run([uv, *common, *args, "-o", str(out)], check=True)
            body = out.read_text(encoding="utf-8").replace(str(folder) + "/", "requirements/")
            body = body.replace(str(pyproject), "pyproject.toml").replace(tmp + "/", "")
            head = (
                "# The exact lock (requirements/lock.py; refresh with `make lock`).\n"
                f"{STAMP}{stamp}\n"
            )
            out.write_text(head + body, encoding="utf-8")


def main(argv: list[str]) -> int:
    if argv[:1] == ["check"] and len(argv) == 1:
        try:
            check()
        except LockError as err:
            print(f"error: the lock in requirements/ is not usable: {err}; run `make lock`")
            return 1
        return 0
    if argv[:1] == ["write"] and len(argv) == 2:
        write(argv[1])
        check()
        return 0
    print("usage: lock.py check | lock.py write UV", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
