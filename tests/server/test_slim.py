"""What the server leaves out of the client's files (server/slim.py): comments, with every
line kept; checked on tricky scripts and, with TypeScript's parser, on every shipped one."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from ginrummy.server.slim import SlimError, slim, strip_script, strip_style

ROOT = Path(__file__).resolve().parents[2]
WEB_DIR = ROOT / "src" / "ginrummy" / "web"


@pytest.mark.parametrize(
    ("source", "shipped"),
    [
        ("a = 1; // note\nb = 2;\n", "a = 1;\nb = 2;\n"),
        ("  // a whole line\n  x();\n", "\nx();\n"),
        ("if (a) {\n    b(); \n  }\n", "if (a) {\nb();\n}\n"),
        ("t = `\n    indented text\n`;\n  u();", "t = `\n    indented text\n`;\nu();"),
        ("t = `${\n    a\n}`;", "t = `${\na\n}`;"),
        ("/**\n * Two lines.\n */\nf();\n", "\n\n\nf();\n"),
        ("f(/** @type {X} */ (y));", "f(  (y));"),
        ('s = "// not a comment /* nor this */";', 's = "// not a comment /* nor this */";'),
        ("s = '\\' // still a string';", "s = '\\' // still a string';"),
        ("r = /\\/\\/ slashes/g; // gone", "r = /\\/\\/ slashes/g;"),
        ("r = /[/*]+/.test(x);", "r = /[/*]+/.test(x);"),
        ("q = a / b / c; // gone", "q = a / b / c;"),
        ("q = (a) / 2 /* gone */;", "q = (a) / 2  ;"),
        ("return /x/.test(y);", "return /x/.test(y);"),
        (
            "t = `a // b ${c /* gone */ + `d /* kept */`} e`;",
            "t = `a // b ${c   + `d /* kept */`} e`;",
        ),
        ("t = `${{ a: 1 }.a} // kept`; // gone", "t = `${{ a: 1 }.a} // kept`;"),
        ("t = `line\n// kept\n`;\n", "t = `line\n// kept\n`;\n"),
    ],
)
def test_comments_and_indentation_go_and_everything_else_stays(source: str, shipped: str) -> None:
    assert strip_script(source) == shipped
    assert shipped.count("\n") == source.count("\n")


@pytest.mark.parametrize("source", ["s = 'open;\n", "t = `open", "t = `${a", "r = /open\n/;"])
def test_what_the_scanner_cannot_follow_is_refused(source: str) -> None:
    with pytest.raises(SlimError):
        strip_script(source)


def test_styles_lose_comments_and_keep_strings_and_lines() -> None:
    source = 'a::after { content: "/* kept */"; } /* gone\nacross lines */ b { }\n'
    assert strip_style(source) == 'a::after { content: "/* kept */"; } \n b { }\n'
    indented = 'a {\n  color: red;  \n  content: "x\\\n  y";\n}\n'
    assert strip_style(indented) == 'a {\ncolor: red;\ncontent: "x\\\n  y";\n}\n'


def shipped_scripts() -> list[Path]:
    return sorted(p for p in WEB_DIR.rglob("*.js") if p.is_file())


def test_every_shipped_script_keeps_its_lines() -> None:
    for path in shipped_scripts():
        source = path.read_bytes()
        assert slim(path.name, source).count(b"\n") == source.count(b"\n"), path


def test_every_shipped_script_is_the_same_program_as_its_source() -> None:
    """TypeScript parses both and prints them without comments: the same text."""
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "typescript").is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail("node and the client's test tools (npm ci) are required in CI")
        pytest.skip("node or TypeScript is not installed")
    pairs = [
        [str(p.relative_to(WEB_DIR)), p.read_text(), slim(p.name, p.read_bytes()).decode()]
        for p in shipped_scripts()
    ]
    assert len(pairs) > 50
    checker = ROOT / "tests" / "js" / "same_program.mjs"
    done = subprocess.run(
        [node, str(checker)], input=json.dumps(pairs), capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    changed = [["x.js", "a = b / c;", "a = b / d;"]]  # the checker does tell programs apart
    other = subprocess.run(
        [node, str(checker)], input=json.dumps(changed), capture_output=True, text=True, check=False
    )
    assert other.returncode == 1 and "x.js" in other.stdout
