"""The shared pseudo-random generator: SplitMix64, identical in Python and in the Rust core.

Every chance event of a game (the set-up draws of :func:`hansa_lab.engine.state.new_game`)
and every seat's strategy stream (:func:`seat_stream`) comes from an
:class:`Rng`, so that (configuration, seed, line-up) gives the same game in both engines.
The Rust twin is ``core/src/rng.rs``; every method below is defined only in terms of
:meth:`Rng.next_u64`, and both sides implement the same algorithms:

=====================  =====================================================================
``next_u64()``          SplitMix64 (Steele, Lea, Flood 2014): ``state += 0x9E3779B97F4A7C15``
                        (mod 2**64), then the output mix :func:`mix64` of the new state
``below(n)``            uniform integer in ``[0, n)`` by rejection: draw ``x = next_u64()``
                        until ``x < 2**64 - (2**64 % n)``, return ``x % n``
``random()``            float in ``[0, 1)``: ``(next_u64() >> 11) * 2**-53``
``randrange(a[, b])``   ``randrange(n) = below(n)``; ``randrange(a, b) = a + below(b - a)``
``choice(seq)``         ``seq[below(len(seq))]``
``shuffle(x)``          Fisher–Yates from the end: for ``i = len-1 … 1``:
                        ``j = below(i + 1)``, swap ``x[i]`` and ``x[j]``
``sample(seq, k)``      partial Fisher–Yates on a copy: for ``i = 0 … k-1``:
                        ``j = i + below(len - i)``, swap; the first ``k`` items
=====================  =====================================================================

Seeds: ``Rng(seed)`` starts from ``seed mod 2**64`` (negative seeds wrap). The game's
set-up uses ``Rng(seed)``; the strategy of seat ``k`` uses :func:`seat_stream`
``(seed, k)``, whose state is ``mix64(mix64(seed mod 2**64) ^ (k + 1))``.

>>> r = Rng(1)
>>> r.next_u64()
10451216379200822465
>>> [Rng(7).below(10) for _ in range(2)]
[7, 7]
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

from hansa_lab.engine.limits import as_int

__all__ = ["GOLDEN", "MASK", "MAX_SEED", "Rng", "check_seed", "mix64", "seat_stream"]

MASK = (1 << 64) - 1
#: The largest seed of a game: seeds are stored as 64-bit signed integers (the logs, the
#: command line); the streams take them mod 2**64.
MAX_SEED = (1 << 63) - 1
GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
_TWO53 = 1.0 / (1 << 53)

T = TypeVar("T")


def check_seed(seed: Any, where: str = "", note: str = "") -> int:
    """``seed`` as a Python int when it is a seed a game can have (an integer 0 …
    :data:`MAX_SEED`; numpy integers too, not a bool), else ``ValueError`` saying so,
    after ``where: `` when given and with ``note`` after the range. The one check of the
    seed range: the configuration, the players, the environments and the compiled games
    call it.

    >>> check_seed(7)
    7
    >>> check_seed(-1, "reset")
    Traceback (most recent call last):
    ...
    ValueError: reset: seed must be an integer 0-9223372036854775807, got -1
    """
    value = as_int(seed)
    if value is None or not 0 <= value <= MAX_SEED:
        prefix = f"{where}: " if where else ""
        raise ValueError(f"{prefix}seed must be an integer 0-{MAX_SEED}{note}, got {seed!r}")
    return value


def mix64(z: int) -> int:
    """SplitMix64's output function (a bijection of 64-bit integers)."""
    z &= MASK
    z = ((z ^ (z >> 30)) * _M1) & MASK
    z = ((z ^ (z >> 27)) * _M2) & MASK
    return z ^ (z >> 31)


class Rng:
    """A SplitMix64 stream with the methods strategies use (see the module docstring)."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & MASK

    def next_u64(self) -> int:
        s = (self.state + GOLDEN) & MASK
        self.state = s
        s = ((s ^ (s >> 30)) * _M1) & MASK
        s = ((s ^ (s >> 27)) * _M2) & MASK
        return s ^ (s >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` (``n`` ≥ 1, at most 2**64)."""
        if not 1 <= n <= 1 << 64:
            raise ValueError(f"below() needs 1 <= n <= 2**64, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def random(self) -> float:
        """Float in ``[0, 1)`` with 53 random bits."""
        return (self.next_u64() >> 11) * _TWO53

    def randrange(self, start: int, stop: int | None = None) -> int:
        if stop is None:
            start, stop = 0, start
        if stop <= start:
            raise ValueError(f"empty range for randrange({start}, {stop})")
        return start + self.below(stop - start)

    def choice(self, seq: Sequence[T]) -> T:
        if not seq:
            raise IndexError("cannot choose from an empty sequence")
        return seq[self.below(len(seq))]

    def shuffle(self, x: MutableSequence[T]) -> None:
        for i in range(len(x) - 1, 0, -1):
            j = self.below(i + 1)
            x[i], x[j] = x[j], x[i]

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        n = len(population)
        if not 0 <= k <= n:
            raise ValueError("sample larger than population or is negative")
        pool = list(population)
        for i in range(k):
            j = i + self.below(n - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]

    def getstate(self) -> int:
        return self.state

    def setstate(self, state: int) -> None:
        self.state = state & MASK

    def __repr__(self) -> str:
        return f"Rng(state={self.state:#018x})"


def seat_stream(seed: int, seat: int) -> Rng:
    """The strategy stream of ``seat`` in the game with ``seed``."""
    r = Rng(0)
    r.state = mix64(mix64(seed & MASK) ^ (seat + 1))
    return r
