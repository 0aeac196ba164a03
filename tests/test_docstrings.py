"""Every docstring example in the package runs and shows what it says."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import hansa_lab

MODULES = sorted(m.name for m in pkgutil.walk_packages(hansa_lab.__path__, "hansa_lab."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


def test_the_examples_are_found():
    counts = {n: doctest.DocTestFinder().find(importlib.import_module(n)) for n in MODULES}
    with_examples = [n for n, tests in counts.items() if any(t.examples for t in tests)]
    assert {"hansa_lab.sim.logs", "hansa_lab.play", "hansa_lab.engine.rules"} <= set(with_examples)
    assert len(with_examples) >= 20
