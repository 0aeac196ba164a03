"""A test strategy importable by worker processes started outside pytest (dask's own
``dask worker`` with this folder on ``PYTHONPATH``): it plays exactly like ``random`` but
pauses once per game for ``HANSA_TEST_PAUSE`` seconds (0 when unset), so a run on those
workers lasts long enough to kill one in the middle of it, while the same line-up played
in the test process gives the same tables at once."""

from __future__ import annotations

import os
import time

from hansa_lab.strategies import RandomStrategy, register, registry


class Sleepy(RandomStrategy):
    """``random`` with a pause at its first decision of a game."""

    name = "test_sleepy"

    def setup(self) -> None:
        self.paused = False

    def choose(self, state, legal, rng):
        if not self.paused:
            self.paused = True
            time.sleep(float(os.environ.get("HANSA_TEST_PAUSE", "0")))
        return super().choose(state, legal, rng)


if "test_sleepy" not in registry():
    register("test_sleepy")(Sleepy)
