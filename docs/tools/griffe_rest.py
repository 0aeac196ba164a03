"""A Griffe extension for the API reference: hansa_lab's docstrings are written in the
reST habits of the Python docs (``literal``, :func:`name` roles, ``>>>`` examples that are
doctests, simple tables between ``====`` rules, literal blocks after a ``::``); this turns
them into the Markdown mkdocstrings renders: roles and double backticks become code spans,
every run of ``>>>`` lines with its expected output becomes a fenced ``pycon`` block, a
simple table is shown as it is written, in a fenced text block, and a literal block is
fenced as it is written (Python when it parses as Python, else text) with its ``::`` read
as reST reads it (``Example::`` → ``Example:``; a ``::`` alone or after a space is
dropped). The docstrings themselves are unchanged."""

from __future__ import annotations

import ast
import re
import textwrap
from typing import Any

import griffe

_ROLE = re.compile(r":(?:py:)?(?:func|class|meth|mod|data|attr|exc|obj|const):`~?([^`]+)`")
_LITERAL = re.compile(r"``([^`]+?)``")
_TABLE_RULE = re.compile(r"^\s*=+(\s+=+)+\s*$")


def _tables_fenced(text: str) -> str:
    """reST simple tables (three rule lines of ``=``) as fenced text blocks."""
    out: list[str] = []
    rules = 0
    for line in text.splitlines():
        if _TABLE_RULE.match(line):
            if rules == 0:
                out.extend(["", "```text"])
            rules += 1
            out.append(line)
            if rules == 3:
                out.extend(["```", ""])
                rules = 0
        else:
            out.append(line)
    return "\n".join(out)


def _literal_marker(line: str) -> str | None:
    """The line that introduces a reST literal block, as shown (``"Example::"`` →
    ``"Example:"``, ``"Example ::"`` → ``"Example"``, ``"::"`` → ``""``), or None when
    ``line`` does not end with ``::``."""
    stripped = line.rstrip()
    if not stripped.endswith("::") or stripped.endswith(":::"):
        return None
    body = stripped[:-2]
    if not body.strip():
        return ""
    return body.rstrip() if body.endswith((" ", "\t")) else f"{body}:"


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _fence(block: list[str]) -> list[str]:
    """A literal block's lines (indented) as a fenced block, dedented."""
    code = textwrap.dedent("\n".join(block)).strip("\n")
    try:
        ast.parse(code)
        language = "python"
    except SyntaxError:
        language = "text"
    return ["", f"```{language}", *code.splitlines(), "```", ""]


def _split_literals(text: str) -> list[tuple[bool, list[str]]]:
    """``text`` in runs of lines: (False, prose) and (True, a fenced literal block)."""
    lines = text.splitlines()
    parts: list[tuple[bool, list[str]]] = []
    prose: list[str] = []
    i = 0
    while i < len(lines):
        marker = _literal_marker(lines[i])
        if marker is None:
            prose.append(lines[i])
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        base = _indent(lines[i])
        end = j
        while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > base):
            end += 1
        while end > j and not lines[end - 1].strip():
            end -= 1
        if end == j:  # no indented block follows: the "::" is ordinary text
            prose.append(lines[i])
            i += 1
            continue
        if marker.strip():
            prose.append(marker)
        parts.append((False, prose))
        parts.append((True, _fence(lines[j:end])))
        prose = []
        i = end
    parts.append((False, prose))
    return parts


def to_markdown(text: str) -> str:
    """reST habits → Markdown (see the module doc)."""
    out: list[str] = []
    for literal, lines in _split_literals(text):
        if literal:
            out.extend(lines)
        elif lines:
            out.append(_prose_to_markdown("\n".join(lines)))
    return "\n".join(out)


def _prose_to_markdown(text: str) -> str:
    """Roles, double backticks, simple tables and ``>>>`` examples of prose → Markdown."""
    text = _ROLE.sub(lambda m: f"`{m.group(1)}`", text)
    text = _LITERAL.sub(lambda m: f"`{m.group(1)}`", text)
    text = _tables_fenced(text)  # after: its fences must not look like literals
    out: list[str] = []
    in_example = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(">>>"):
            if not in_example:
                out.extend(["", "```pycon"])
                in_example = True
            out.append(stripped)
        elif in_example and stripped and not stripped.startswith("..."):
            out.append(stripped)  # expected output
        elif in_example and stripped.startswith("..."):
            out.append(stripped)
        else:
            if in_example:
                out.extend(["```", ""])
                in_example = False
            out.append(line)
    if in_example:
        out.append("```")
    return "\n".join(out)


class RestToMarkdown(griffe.Extension):
    """Rewrites each object's docstring with :func:`to_markdown` as it is loaded."""

    def on_instance(self, *, node: Any, obj: griffe.Object, agent: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = to_markdown(obj.docstring.value)
