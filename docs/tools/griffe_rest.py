"""A Griffe extension for the API reference: hansa_lab's docstrings are written in the
reST habits of the Python docs (``literal``, :func:`name` roles, ``>>>`` examples that are
doctests, simple tables between ``====`` rules); this turns them into the Markdown
mkdocstrings renders: roles and double backticks become code spans, every run of ``>>>``
lines with its expected output becomes a fenced ``pycon`` block, and a simple table is
shown as it is written, in a fenced text block. The docstrings themselves are unchanged."""

from __future__ import annotations

import re
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


def to_markdown(text: str) -> str:
    """reST habits → Markdown (see the module doc)."""
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
