"""What the server leaves out of the client's files before compressing them (docs/offline.md).

The files under ``web/`` are written for people and for the type checker: long comments and
JSDoc types. A browser needs none of it, so the shipped form of

- a script (``.js``) is the same program without its comments and without the spaces
  that start and end its lines, every line where it was (a multi-line comment becomes as
  many empty lines), so that a stack trace's line numbers are the source's: no source map
  is needed;
- a style sheet (``.css``) is the same without its comments and its lines' leading and
  trailing spaces, lines kept likewise;
- a JSON file is the same value written compactly (key order kept);
- a page (``.html``) has the site's own style sheets inline (``<style>``) instead of linked,
  so that it can be drawn without another request (``inline_styles``);

and every other file is shipped as it is. Nothing is renamed or reordered: this is no
bundler and no minifier. ``tests/server/test_slim.py`` checks with TypeScript's parser
that every shipped script is the same program as its source.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

# One token of a script outside template literals. Numbers scan as words (``1.5`` is a
# word, a dot and a word), which is all that telling a regular expression from a
# division needs.
_TOKEN = re.compile(
    r"""
      (?P<ws>\s+)
    | (?P<line>//[^\n]*)
    | (?P<block>/\*.*?\*/)
    | (?P<string>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")
    | (?P<word>[\w$]+)
    | (?P<tick>`)
    | (?P<open>\{)
    | (?P<close>\})
    | (?P<punct>.)
    """,
    re.DOTALL | re.VERBOSE,
)
# The text of a template literal up to its end or its next substitution.
_TEMPLATE_TEXT = re.compile(r"(?:[^`\\$]|\\.|\$(?!\{))*", re.DOTALL)
# A regular expression literal: classes may hold an unescaped slash.
_REGEX = re.compile(r"/(?:[^/\\\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*\])+/[a-z]*")
# After these words an expression starts, so a slash opens a regular expression.
_BEFORE_EXPRESSION = frozenset(
    {"return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw",
     "case", "do", "else", "yield", "await"}
)  # fmt: skip
# A page's link to one of the site's own style sheets (a path under web/).
_STYLESHEET = re.compile(r'<link rel="stylesheet" href="/static/([\w/.-]+\.css)">')
_CSS = re.compile(r"""("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|/\*.*?\*/|[ \t]*\n[ \t]*""", re.DOTALL)


class SlimError(ValueError):
    """A script the scanner cannot follow (an unterminated string, template or expression)."""


def slim(name: str, body: bytes) -> bytes:
    """The shipped form of the file ``name`` (a path under ``web/``) with bytes ``body``."""
    suffix = Path(name).suffix
    if suffix == ".js":
        return strip_script(body.decode("utf-8")).encode("utf-8")
    if suffix == ".css":
        return strip_style(body.decode("utf-8")).encode("utf-8")
    if suffix == ".json":
        value = json.loads(body)
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return body


def inline_styles(page: bytes, sources: Mapping[str, bytes]) -> tuple[bytes, frozenset[str]]:
    """The page ``page`` with each linked style sheet of ``sources`` (by path under web/)
    written inline, slim; and the paths inlined."""
    inlined: set[str] = set()

    def inline(link: re.Match[str]) -> str:
        source = sources.get(link[1])
        if source is None:
            return link[0]
        inlined.add(link[1])
        return f"<style>{strip_style(source.decode('utf-8')).strip()}</style>"

    html = _STYLESHEET.sub(inline, page.decode("utf-8"))
    return html.encode("utf-8"), frozenset(inlined)


def strip_style(source: str) -> str:
    """A style sheet without its comments and its lines' leading and trailing spaces,
    every line where it was (strings are kept as written)."""
    return _CSS.sub(lambda m: m[1] or "\n" * m[0].count("\n"), source)


def _regex_may_follow(previous: str) -> bool:
    """Whether a slash after the token ``previous`` opens a regular expression."""
    if not previous or previous in _BEFORE_EXPRESSION:
        return True
    # After a name, a number, a string, a closing bracket or a template: a division.
    return len(previous) == 1 and previous not in ")]}`" and not previous[0].isalnum()


def strip_script(source: str) -> str:
    """A script without its comments and its lines' leading and trailing spaces (outside
    template literals, whose text is kept as written), every line where it was."""
    out: list[str] = []
    pos, previous = 0, ""
    # One entry per open template substitution `${`: the braces opened inside it.
    substitutions: list[int] = []
    in_template = False
    while pos < len(source):
        if in_template:
            chunk = _TEMPLATE_TEXT.match(source, pos)
            assert chunk is not None  # the pattern matches the empty string
            out.append(chunk[0])
            pos = chunk.end()
            if source.startswith("${", pos):
                out.append("${")
                substitutions.append(0)
                pos, previous, in_template = pos + 2, "{", False
            elif source.startswith("`", pos):
                out.append("`")
                pos, previous, in_template = pos + 1, "`", False
            else:
                raise SlimError(f"unterminated template literal at offset {pos}")
            continue
        token = _TOKEN.match(source, pos)
        assert token is not None  # `.` with DOTALL matches any character
        kind, text, pos = token.lastgroup, token[0], token.end()
        if kind == "line":
            _drop_trailing_blanks(out)
            continue
        if kind == "block":
            starts_line = not out or (out[-1].isspace() and "\n" in out[-1])
            if starts_line:
                _drop_trailing_blanks(out)
            out.append("\n" * text.count("\n") or ("" if starts_line else " "))
            continue
        if kind == "punct" and text == "/" and _regex_may_follow(previous):
            literal = _REGEX.match(source, token.start())
            if literal is None:
                raise SlimError(f"unterminated regular expression at offset {token.start()}")
            text, pos = literal[0], literal.end()
        elif kind == "punct" and text in "'\"":
            raise SlimError(f"unterminated string at offset {token.start()}")
        elif kind == "tick":
            in_template = True
        elif kind == "open" and substitutions:
            substitutions[-1] += 1
        elif kind == "close" and substitutions:
            if substitutions[-1] == 0:
                substitutions.pop()
                in_template = True
            else:
                substitutions[-1] -= 1
        if kind == "ws" and "\n" in text:
            text = "\n" * text.count("\n")  # a line's indentation and trailing spaces
        out.append(text)
        if kind != "ws":
            previous = text
    if in_template or substitutions:
        raise SlimError("unterminated template literal at the end")
    return "".join(out)


def _drop_trailing_blanks(out: list[str]) -> None:
    """Spaces before a removed line comment go too (its line's newline stays)."""
    if out and out[-1].isspace():
        last = out.pop()
        kept = last[: last.rfind("\n") + 1]
        if kept:
            out.append(kept)
