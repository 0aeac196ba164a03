"""The compiled core's stub (``hansa_lab/_core.pyi``) names exactly what the built module
exports: every module-level name, and every public method and property of each class.
A name added to the bindings without its type, or a stub entry the bindings lost, fails
here (mypy trusts the stub; nothing else would notice)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import hansa_lab
from hansa_lab import _core

STUB = Path(hansa_lab.__file__).parent / "_core.pyi"


def stub_names(source: str) -> tuple[set[str], dict[str, set[str]]]:
    """The public module-level names of a stub and, per class, its public members."""
    names: set[str] = set()
    members: dict[str, set[str]] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
            members[node.name] = {
                item.name for item in node.body
                if isinstance(item, ast.FunctionDef) and not item.name.startswith("_")}
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return {n for n in names if not n.startswith("_")}, members


def module_names(module: object) -> tuple[set[str], dict[str, set[str]]]:
    """The public names a module exports and, per class, its public members."""
    names = {n for n in dir(module) if not n.startswith("_")}
    members = {n: {m for m in vars(getattr(module, n)) if not m.startswith("_")}
               for n in names if isinstance(getattr(module, n), type)}
    return names, members


def differences(stub: tuple[set[str], dict[str, set[str]]],
                built: tuple[set[str], dict[str, set[str]]]) -> list[str]:
    """What the stub lacks and what it names that the module lacks, one line each."""
    (s_names, s_members), (b_names, b_members) = stub, built
    out = [f"the stub lacks {n}" for n in sorted(b_names - s_names)]
    out += [f"the stub names {n}, which the module lacks" for n in sorted(s_names - b_names)]
    for cls in sorted(s_members.keys() & b_members.keys()):
        out += [f"the stub lacks {cls}.{m}" for m in sorted(b_members[cls] - s_members[cls])]
        out += [f"the stub names {cls}.{m}, which the module lacks"
                for m in sorted(s_members[cls] - b_members[cls])]
    return out


def test_the_stub_names_what_the_core_exports() -> None:
    assert differences(stub_names(STUB.read_text("utf-8")), module_names(_core)) == []


def test_every_stub_class_is_a_class_of_the_core() -> None:
    _, members = stub_names(STUB.read_text("utf-8"))
    for cls in members:
        assert isinstance(getattr(_core, cls), type), cls


@pytest.mark.parametrize(("stub", "problem"), [
    ("", "the stub lacks MAX_ENVS"),
    ("MAX_ENVS: int\nGONE: int\n", "the stub names GONE, which the module lacks"),
    ("MAX_ENVS: int\nclass CoreState:\n    def copy(self) -> CoreState: ...\n",
     "the stub lacks CoreState.to_dict"),
    ("MAX_ENVS: int\nclass CoreState:\n    def copy(self) -> CoreState: ...\n"
     "    def to_dict(self) -> dict: ...\n    def gone(self) -> None: ...\n",
     "the stub names CoreState.gone, which the module lacks"),
])
def test_the_check_catches_a_missing_or_stale_name(stub: str, problem: str) -> None:
    class CoreState:
        def copy(self) -> None: ...
        def to_dict(self) -> None: ...

    class Module:
        pass

    module = Module()
    module.MAX_ENVS = 1  # type: ignore[attr-defined]
    module.CoreState = CoreState  # type: ignore[attr-defined]
    found = differences(stub_names(stub), module_names(module))
    assert problem in found


DOOR = "hansa_lab/compiled/bridge.py"


def door_violations(source: str, name: str) -> list[str]:
    """Where a module other than the bridge reaches the core itself: imports the
    extension module, calls ``core_module()`` or touches a core object's ``._s``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            if node.module == "hansa_lab._core" or (
                    node.module == "hansa_lab" and any(a.name == "_core" for a in node.names)):
                found.append(f"{name}:{node.lineno}: imports hansa_lab._core")
        elif isinstance(node, ast.Import) and any(a.name == "hansa_lab._core"
                                                  for a in node.names):
            found.append(f"{name}:{node.lineno}: imports hansa_lab._core")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "core_module":
            found.append(f"{name}:{node.lineno}: calls core_module()")
        elif isinstance(node, ast.Attribute) and node.attr == "_s":
            found.append(f"{name}:{node.lineno}: touches a core object's ._s")
    return found


def test_only_the_bridge_reaches_the_core() -> None:
    root = STUB.parent.parent
    found: list[str] = []
    for path in sorted(STUB.parent.rglob("*.py")):
        name = path.relative_to(root).as_posix()
        if name != DOOR:
            found += door_violations(path.read_text("utf-8"), name)
    assert found == []


@pytest.mark.parametrize("source", [
    "from hansa_lab import _core", "from hansa_lab._core import CoreState",
    "import hansa_lab._core", "x = core_module().MAX_ENVS", "game._s.copy()",
])
def test_the_door_check_catches_a_way_around_the_bridge(source: str) -> None:
    assert len(door_violations(source, "m.py")) == 1
