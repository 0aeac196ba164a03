"""No stale paths: every file path and module name the sources, docs and data mention exists.

A comment, docstring, doc page or data file that names ``hansa_lab/sim/tune.py`` after
the module moved sends a reader to nothing. This test scans

* ``hansa_lab/**/*.py``, ``hansa_lab/**/*.json``, ``hansa_lab/**/*.md``,
* ``core/src/**/*.rs``, ``docs/**/*.md``, ``README.md`` and ``tests/*.py``

for repository paths (``hansa_lab/….py|.json|.md|.rs``, ``core/src/….rs``,
``docs/….md``, ``tests/….py``, and ``engine/rules.py``-style paths that start at one of
the package's subpackages) and dotted module names (``hansa_lab.a.b``,
``hansa_lab.mod.Name``, ``hansa_lab.mod.Class.method``), and reports every one that does
not resolve, as ``file:line: name``. A path resolves when the file exists under the
repository root. A dotted name resolves when its longest module prefix is a module or
package of the source tree and what follows is a top-level name of that module (a
function, class, assignment, import or ``__all__`` entry, read from its source without
importing it), and, when that name is a class, the next part is defined in its body.

Honest exceptions are listed below with their reasons (a file left out, a path with an
upper-case placeholder such as ``hansa_lab/strategies/NAME.py``, a file-format tag such as
``hansa_lab.learned_model/1``); nothing else is skipped. The
whole scan reads about 500 files and parses each named module once (well under a second).
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: the files scanned, as glob patterns under the repository root
SCANNED = ("hansa_lab/**/*.py", "hansa_lab/**/*.json", "hansa_lab/**/*.md",
           "core/src/**/*.rs", "docs/**/*.md", "README.md", "tests/*.py")

#: files left out on purpose, each with its reason
EXCLUDED_FILES: dict[str, str] = {
    # CHANGELOG.md is not in SCANNED either: it names old paths on purpose (what moved).
    "tests/test_stale_paths.py": "its own docstring and tests name example paths that "
                                 "must not exist",
}

# A path with an upper-case placeholder part (``hansa_lab/strategies/NAME.py``,
# ``DATA/NAME.json``) is a template a recipe fills in, not a reference to a file.
_TEMPLATE = re.compile(r"(?:^|/)[A-Z][A-Z0-9_]*(?:[./]|$)")

#: (file, name) pairs that are not references to this repository's files, with reasons
ALLOWED: dict[tuple[str, str], str] = {}

# A repository path: not preceded by a word character, dot or slash (so ``x/docs/a.md``,
# a URL's path or ``results/…/docs/…`` is not one), optionally behind ``../`` steps.
_PATH = re.compile(
    r"(?<![\w./-])(?:\.\./)*"
    r"((?:hansa_lab/[\w/.-]*?\.(?:py|json|md|rs))|(?:core/src/[\w/.-]*?\.rs)"
    r"|(?:docs/[\w/.-]*?\.md)|(?:tests/[\w/.-]*?\.py))(?![\w/])"
)
#: hansa_lab's subpackages: ``engine/rules.py`` in a docstring means hansa_lab/engine/rules.py
SUBPACKAGES = sorted(p.name for p in (ROOT / "hansa_lab").iterdir()
                     if (p / "__init__.py").is_file())
# A path inside the package written from a subpackage on (``strategies/evaluation.py``).
_SHORT = re.compile(r"(?<![\w./-])((?:" + "|".join(SUBPACKAGES)
                    + r")/[\w/.-]*?\.(?:py|json|md))(?![\w/])")
# A dotted name; ``hansa_lab.learned_model/1`` (followed by ``/digit``) is a file-format
# tag, not a module, and ``hansa_lab.x-y`` a distribution or folder name.
_DOTTED = re.compile(r"(?<![\w./-])(hansa_lab(?:\.[A-Za-z_]\w*)+)(?![\w-]|/\d)")


def _scanned_files() -> list[Path]:
    files: set[Path] = set()
    for pattern in SCANNED:
        files.update(p for p in ROOT.glob(pattern) if p.is_file())
    return sorted(p for p in files
                  if p.relative_to(ROOT).as_posix() not in EXCLUDED_FILES
                  and "__pycache__" not in p.parts)


def _module_file(parts: tuple[str, ...]) -> Path | None:
    """The source of module ``parts`` (``("hansa_lab", "engine", "state")``), if any."""
    base = ROOT.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py", base.with_suffix(".pyi")):
        if candidate.is_file():
            return candidate
    return None


def _is_extension(parts: tuple[str, ...]) -> bool:
    """A compiled extension module (``hansa_lab._core``): its names are not in a source."""
    folder = ROOT.joinpath(*parts[:-1])
    return any(folder.glob(f"{parts[-1]}.*.so")) or any(folder.glob(f"{parts[-1]}.*.pyd"))


def _names_of(body: list[ast.stmt]) -> dict[str, ast.ClassDef | None]:
    """Names a module or class body defines (classes kept, to look inside them)."""
    names: dict[str, ast.ClassDef | None] = {}

    def target(t: ast.expr) -> None:
        if isinstance(t, ast.Name):
            names.setdefault(t.id, None)
        elif isinstance(t, (ast.Tuple, ast.List)):
            for e in t.elts:
                target(e)

    for node in body:
        if isinstance(node, ast.ClassDef):
            names[node.name] = node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.setdefault(node.name, None)
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                target(t)
            if (any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
                    and isinstance(node.value, (ast.List, ast.Tuple))):
                for e in node.value.elts:
                    if isinstance(e, ast.Constant) and isinstance(e.value, str):
                        names.setdefault(e.value, None)
        elif isinstance(node, ast.AnnAssign):
            target(node.target)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                names.setdefault((alias.asname or alias.name).split(".")[0], None)
        elif isinstance(node, (ast.If, ast.Try)):  # TYPE_CHECKING blocks, fallbacks
            for sub in (node.body, node.orelse,
                        *(h.body for h in getattr(node, "handlers", ()))):
                for k, v in _names_of(sub).items():
                    names.setdefault(k, v)
    return names


@functools.cache
def _module_names(path: Path) -> dict[str, ast.ClassDef | None]:
    return _names_of(ast.parse(path.read_text(encoding="utf-8")).body)


def dotted_resolves(name: str) -> bool:
    """``hansa_lab.a.b[.Name[.member]]``: a module of the tree, then names it defines."""
    parts = tuple(name.split("."))
    for cut in range(len(parts), 0, -1):
        head, rest = parts[:cut], parts[cut:]
        source = _module_file(head)
        if source is None:
            if _is_extension(head):
                return True
            continue
        if not rest or re.fullmatch(r"__\w+__", rest[0]):
            return True  # the module itself, or one of every module's own attributes
        names = _module_names(source)
        if rest[0] not in names:
            return False
        cls = names[rest[0]]
        if cls is None or len(rest) == 1:
            return True
        return rest[1] in _names_of(cls.body)
    return False


def references(text: str) -> Iterator[tuple[int, str, bool]]:
    """(line, name, resolves) for every path and dotted name in ``text``."""
    for number, line in enumerate(text.splitlines(), start=1):
        for m in _PATH.finditer(line):
            path = m.group(1)
            if not _TEMPLATE.search(path):
                yield number, path, (ROOT / path).is_file()
        for m in _SHORT.finditer(line):
            path = m.group(1)
            if not _TEMPLATE.search(path):
                yield number, path, (ROOT / "hansa_lab" / path).is_file()
        for m in _DOTTED.finditer(line):
            name = m.group(1)
            yield number, name, dotted_resolves(name)


def stale_references() -> list[str]:
    found = []
    for path in _scanned_files():
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        for number, name, ok in references(text):
            if not ok and (rel, name) not in ALLOWED:
                found.append(f"{rel}:{number}: {name}")
    return found


def test_no_file_or_module_named_in_sources_docs_or_data_is_missing() -> None:
    stale = stale_references()
    assert not stale, (f"{len(stale)} stale path(s) or module name(s); fix the reference, "
                       "or the move that broke it:\n" + "\n".join(stale))


def test_the_scan_finds_what_it_should() -> None:
    """The scanner itself: real names resolve, made-up ones do not, tags are not names."""
    assert dotted_resolves("hansa_lab.engine.state")
    assert dotted_resolves("hansa_lab.engine.state.GameConfig")
    assert dotted_resolves("hansa_lab.engine.state.State.clone")
    assert dotted_resolves("hansa_lab.engine")
    assert dotted_resolves("hansa_lab._core")
    assert dotted_resolves("hansa_lab.__path__")
    assert not dotted_resolves("hansa_lab.engine.no_such_module")
    assert not dotted_resolves("hansa_lab.engine.state.NoSuchName")
    assert not dotted_resolves("hansa_lab.engine.state.State.no_such_method")
    text = ("see hansa_lab/engine/state.py and hansa_lab/engine/gone.py, "
            "core/src/nowhere.rs, `docs/guides/rules.md`, tests/test_layers.py;\n"
            "engine/rules.py, engine/gone.py, core/src/strategies/greedy.rs, "
            "a template hansa_lab/strategies/NAME.py, "
            "format hansa_lab.learned_model/1, module hansa_lab.engine.rules.apply, "
            "a URL https://x.org/docs/a.md, a folder results/x/tests/y.py")
    got = [(line, name, ok) for line, name, ok in references(text)]
    assert got == [(1, "hansa_lab/engine/state.py", True),
                   (1, "hansa_lab/engine/gone.py", False),
                   (1, "core/src/nowhere.rs", False),
                   (1, "docs/guides/rules.md", True),
                   (1, "tests/test_layers.py", True),
                   (2, "core/src/strategies/greedy.rs", True),
                   (2, "engine/rules.py", True),
                   (2, "engine/gone.py", False),
                   (2, "hansa_lab.engine.rules.apply", True)]
