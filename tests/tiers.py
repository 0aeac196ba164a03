"""The two sizes of the ``slow`` tier.

``make test`` runs the slow tier *bounded* (``HANSA_LAB_SLOW`` unset or ``bounded``): each
long parametrisation keeps a fixed, named part that still proves what the test is for
(every transition, every board and variant, both backends), and the repetitions that only
add statistical weight are skipped with a reason saying how to run them.
``HANSA_LAB_SLOW=full`` (``make test-full``) runs every case at its full size.

"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

import pytest

#: the full slow tier (every repetition) instead of the bounded one
FULL = os.environ.get("HANSA_LAB_SLOW", "bounded") == "full"

#: a case that runs in the full slow tier only
full_only = pytest.mark.skipif(not FULL, reason="bounded slow tier: run with "
                                                 "HANSA_LAB_SLOW=full (make test-full)")


def sample(values: Iterable[Any], keep: int) -> list[Any]:
    """``values`` as pytest parameters: the first ``keep`` always run, the others only in
    the full tier."""
    return [pytest.param(v) if i < keep else pytest.param(v, marks=full_only)
            for i, v in enumerate(values)]


def size(full: int, bounded: int) -> int:
    """A repetition count: ``full`` in the full tier, ``bounded`` otherwise."""
    return full if FULL else bounded
