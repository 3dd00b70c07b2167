"""Every reference to a Markdown file names a file of the repository, and every section
sign a section of it, so that a newcomer with a clone can follow each one.

A reference is a path ending in ``.md``, resolved from the repository root
(``docs/rules.md``) or from the referring file's folder (``../bench/RESULTS.md`` here),
optionally followed by sections: ``docs/rules.md §3.4, §3.5`` or ``§3-§4``. A section is
a numbered heading (``### 3.4 Showdown``) or a numbered list item under one: ``§7.2`` is
item 2 under ``## 7.``. A bare ``§7`` means the rule book, docs/rules.md, which the file
must then name. Web addresses are not references.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("src", "tests", "docs", "bench", "examples", "README.md")
TEXT_SUFFIXES = {".py", ".md", ".js", ".mjs", ".html", ".css", ".json", ".toml", ".txt"}
SKIPPED_DIRS = {"__pycache__", "node_modules", ".venv", ".pytest_cache"}
RULE_BOOK = Path("docs/rules.md")

# Not after a path or address character, so neither a web address nor the tail of a
# longer path starts a match of its own.
REFERENCE = re.compile(
    r"(?<![\w./:-])(?P<path>(?:\.\.?/)*[\w-]+(?:/[\w.-]+)*\.md)\b"
    r"(?P<sections>(?:\s*(?:[,–-]|and|or)?\s*§\d+(?:\.\d+)*)*)"
)
SECTION_SIGN = re.compile(r"§(\d+(?:\.\d+)*)")
NUMBERED_HEADING = re.compile(r"#{1,6}\s+(\d+(?:\.\d+)*)\.?\s")
NUMBERED_ITEM = re.compile(r"(\d+)\.\s")


def scanned_files(root: Path) -> Iterator[Path]:
    for name in SCANNED:
        top = root / name
        if top.is_file():
            yield top
        elif top.is_dir():
            for path in sorted(top.rglob("*")):
                parts = set(path.relative_to(root).parts)
                skipped = parts & SKIPPED_DIRS or any(p.endswith(".egg-info") for p in parts)
                if path.is_file() and path.suffix in TEXT_SUFFIXES and not skipped:
                    yield path


def resolve(path: str, referrer: Path, root: Path) -> Path | None:
    """The repository file ``path`` names, from the root or from the referrer's folder."""
    for base in (root, referrer.parent):
        target = (base / path).resolve()
        if target.is_file() and target.is_relative_to(root.resolve()):
            return target
    return None


def sections(markdown: str) -> set[str]:
    """Section numbers of a Markdown text: numbered headings and the items under them."""
    found: set[str] = set()
    heading: str | None = None
    in_code = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif in_code:
            continue
        elif match := NUMBERED_HEADING.match(line):
            heading = match[1]
            found.add(heading)
        elif line.startswith("#"):
            heading = None
        elif heading is not None and (match := NUMBERED_ITEM.match(line)):
            found.add(f"{heading}.{match[1]}")
    return found


def problems(root: Path) -> list[str]:
    """One line per reference that a reader of the repository could not follow."""
    out: list[str] = []
    rule_book = (root / RULE_BOOK).resolve()
    book_sections = (
        sections(rule_book.read_text(encoding="utf-8")) if rule_book.is_file() else set()
    )
    for file in scanned_files(root):
        text = file.read_text(encoding="utf-8")
        where = file.relative_to(root).as_posix()
        covered: list[tuple[int, int]] = []
        names_book = file.resolve() == rule_book
        for ref in REFERENCE.finditer(text):
            line = text.count("\n", 0, ref.start()) + 1
            covered.append(ref.span("sections"))
            target = resolve(ref["path"], file, root)
            if target is None:
                out.append(f"{where}:{line}: {ref['path']} is not a file of the repository")
                continue
            names_book = names_book or target == rule_book
            have = sections(target.read_text(encoding="utf-8"))
            for number in SECTION_SIGN.findall(ref["sections"]):
                if number not in have:
                    out.append(f"{where}:{line}: {ref['path']} has no section §{number}")
        for sign in SECTION_SIGN.finditer(text):
            if any(start <= sign.start() < end for start, end in covered):
                continue
            line = text.count("\n", 0, sign.start()) + 1
            if not names_book:
                out.append(f"{where}:{line}: §{sign[1]} without naming {RULE_BOOK.as_posix()}")
            elif sign[1] not in book_sections:
                out.append(f"{where}:{line}: {RULE_BOOK.as_posix()} has no section §{sign[1]}")
    return out


def test_every_markdown_reference_names_a_file_and_section_that_exist() -> None:
    assert problems(ROOT) == []


# The checker on small trees. The names are built so that this file's own text holds
# no reference that the test above would read.
MD = ".md"
BOOK = "# Rules\n\n## 3. Play\n\n### 3.4 Showdown\n\n## 7. Examples\n1. one\n2. two\n"


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in {f"docs/rules{MD}": BOOK, **files}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_a_file_outside_the_repository_is_reported(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"src/a.py": f'"""Coach (RULES{MD} §6)."""\n'})
    assert problems(root) == [f"src/a.py:1: RULES{MD} is not a file of the repository"]


def test_sections_are_headings_and_numbered_items(tmp_path: Path) -> None:
    code = f"# docs/rules{MD} §3.4, §7.2 and §3-§7\n# docs/rules{MD} §3.5, §7.3\n"
    root = _tree(tmp_path, {"src/a.py": code})
    assert problems(root) == [
        f"src/a.py:2: docs/rules{MD} has no section §3.5",
        f"src/a.py:2: docs/rules{MD} has no section §7.3",
    ]


def test_a_bare_section_sign_needs_the_rule_book_named(tmp_path: Path) -> None:
    named = f'"""Deals (docs/rules{MD} §3)."""\n# the upcard (§3.4); void (§3.6)\n'
    root = _tree(tmp_path, {"src/named.py": named, "src/bare.py": "# first upcard (§3.2)\n"})
    assert problems(root) == [
        "src/bare.py:1: §3.2 without naming docs/rules.md",
        "src/named.py:2: docs/rules.md has no section §3.6",
    ]


def test_links_resolve_from_their_folder_and_addresses_are_skipped(tmp_path: Path) -> None:
    doc = f"[book](rules{MD}) [gone](gone{MD}) https://example.org/a/README{MD}\n"
    root = _tree(tmp_path, {"docs/design.md": doc, "bench/RESULTS.md": f"(../docs/rules{MD} §7)"})
    assert problems(root) == [f"docs/design.md:1: gone{MD} is not a file of the repository"]
