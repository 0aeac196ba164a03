"""The package's layers: every import inside ``hansa_lab`` points down (or sideways within
a layer), the engine uses no numpy or pandas, and no two subpackages import each other.

Walks the source of every module (imports inside functions and type-checking blocks
count too), so a lazy upward import is caught like any other.
"""

from __future__ import annotations

import ast
import pkgutil
from collections import defaultdict
from pathlib import Path

import pytest

import hansa_lab

#: lower layers first; a module may import its own layer and the ones below it
LAYERS: dict[str, int] = {
    "errors": 0,
    "version": 0,  # the package version (from the installed metadata)
    "engine": 1,
    "_core": 1,  # the compiled rules core (Rust), the engine's twin
    "compiled": 1,  # the one door to the core: a core position, State <-> core conversion
    "strategies": 2,
    "play": 3,  # games in either engine: the game loop, the engines' games and table
    "golden": 3,
    "stats": 4,
    "env": 4,  # environments for learning agents: the core's games and shipped strategies
    "sim": 5,  # runs: the runner, its workers, store, logs and results
    "studies": 6,  # questions answered with many games: tune, learn, ladder, populations …
    "viz": 7,
    "tools": 8,
}
ROOT = Path(hansa_lab.__file__).parent
NO_NUMERICS = ("engine",)  # pure Python: the readable rules reference


def unit(module: str) -> str:
    """The layer unit of a dotted module name inside the package."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def imports_of(source: str, module: str, is_package: bool) -> list[str]:
    """Absolute names of every module that ``source`` (module ``module``) imports."""
    package = module if is_package else module.rpartition(".")[0]
    out: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                name = ".".join([*base, *([node.module] if node.module else [])])
            else:
                name = node.module or ""
            if name == "hansa_lab":  # `from hansa_lab import x`: x may be a subpackage
                out += [f"hansa_lab.{alias.name}" for alias in node.names]
            else:
                out.append(name)
    return out


def violations(modules: dict[str, tuple[str, bool]]) -> list[str]:
    """Upward imports and numerics in the engine, for modules given as
    name → (source, is_package)."""
    found: list[str] = []
    for module, (source, is_package) in modules.items():
        here = unit(module)
        if here == "":  # the facade, hansa_lab/__init__.py, sits on top of every layer
            continue
        for target in imports_of(source, module, is_package):
            top = target.split(".")[0]
            if here in NO_NUMERICS and top in ("numpy", "pandas"):
                found.append(f"{module} imports {target} (the engine stays pure Python)")
            if top != "hansa_lab":
                continue
            there = unit(target)
            if there == "":
                found.append(f"{module} imports the facade {target}")
            elif LAYERS[there] > LAYERS[here]:
                found.append(f"{module} ({here}, layer {LAYERS[here]}) imports {target} "
                             f"({there}, layer {LAYERS[there]})")
    return found


def package_modules() -> dict[str, tuple[str, bool]]:
    out = {"hansa_lab": ((ROOT / "__init__.py").read_text("utf-8"), True)}
    for info in pkgutil.walk_packages(hansa_lab.__path__, "hansa_lab."):
        rel = Path(*info.name.split(".")[1:])
        path = ROOT / rel / "__init__.py" if info.ispkg else ROOT / rel.with_suffix(".py")
        if path.exists():  # compiled extension modules have no source to read
            out[info.name] = (path.read_text("utf-8"), info.ispkg)
    return out


def test_every_module_has_a_layer() -> None:
    units = {unit(m) for m in package_modules()} - {""}
    assert units <= set(LAYERS), units - set(LAYERS)


def test_imports_point_down() -> None:
    assert violations(package_modules()) == []


def test_no_cycle_between_subpackages() -> None:
    graph: dict[str, set[str]] = defaultdict(set)
    for module, (source, is_package) in package_modules().items():
        here = unit(module)
        for target in imports_of(source, module, is_package):
            there = unit(target) if target.startswith("hansa_lab.") else ""
            if here and there and there != here:
                graph[here].add(there)
    seen: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> None:
        assert node not in path, f"import cycle: {' -> '.join([*path, node])}"
        if node in seen:
            return
        path.append(node)
        for nxt in sorted(graph[node]):
            visit(nxt)
        path.pop()
        seen.add(node)

    for node in sorted(graph):
        visit(node)


@pytest.mark.parametrize(("module", "source", "problem"), [
    ("hansa_lab.engine.rules", "from hansa_lab.viz.render import render_svg",
     "imports hansa_lab.viz.render"),
    ("hansa_lab.engine.state", "def f():\n    from ..sim import runner\n",
     "imports hansa_lab.sim (sim, layer 5)"),
    ("hansa_lab.sim.runner", "from hansa_lab.studies.tune import tune",
     "imports hansa_lab.studies.tune (studies, layer 6)"),
    ("hansa_lab.compiled.bridge", "from hansa_lab.play import play_game",
     "imports hansa_lab.play (play, layer 3)"),
    ("hansa_lab.strategies.greedy", "from hansa_lab import stats",
     "imports hansa_lab.stats"),
    ("hansa_lab.engine.scoring", "import numpy as np", "the engine stays pure Python"),
    ("hansa_lab.sim.runner", "import hansa_lab", "imports the facade"),
])
def test_the_check_catches_an_upward_import(module: str, source: str, problem: str) -> None:
    found = violations({module: (source, False)})
    assert len(found) == 1 and problem in found[0]


def test_sideways_and_downward_imports_pass() -> None:
    modules = {
        "hansa_lab.sim.runner": ("from hansa_lab.stats import intervals\n"
                                 "from .store import ResultStore\n", False),
        "hansa_lab.engine.variants": ("from ..rules import apply\n", True),
        "hansa_lab.viz.render": ("from hansa_lab.engine.state import State\n", False),
    }
    assert violations(modules) == []
