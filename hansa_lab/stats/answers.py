"""One answer record per question, computed once and rendered everywhere.

A designer asks a handful of kinds of question. Each kind has **one primary measure and
one test**, a declared family over which p-values are adjusted, and a fixed vocabulary of
decision words (:data:`WORDS`). An :class:`Answer` holds all of it: the question in words,
who played, the estimate with its interval, the test with raw and adjusted p, the decision
word, what the run could detect and how many more games would decide it. Secondary
measures travel with the record, labelled as such, and never decide the word or fill a
figure's marker.

Every surface — the CLI line, the tables, the figures' markers, the HTML report, notebook
displays and the CSV — renders an :class:`Answer` and nothing else, so they cannot
disagree.

The kinds (:class:`QuestionKind`) and their primary measures (:data:`PRIMARY`):

- ``seat_balance`` — *is any seat favoured?* Win share by seat; the equal-seats
  chi-square test on the win counts; family: the groups (player counts, boards) asked
  together.
- ``tip_effect`` — *does a tip (a strategy bias) help the player who follows it?* Mean
  score difference of the focal seat against the base arm on the same deals (paired t
  over deals); family: the tips asked together. Win share is secondary.
- ``variant_effect`` — *does a rule variant change the first seat's advantage?* The
  first seat's win share minus its fair share, the variant against the printed rules on
  the same deals; family: the variants asked together. Score gaps are secondary.
- ``best_variant`` — *which of these variants is most balanced?* The size of the first
  seat's advantage; the set of variants that cannot be told apart from the best
  (multiple comparisons with the best); family: the variants in the sweep.
- ``populations`` — *do the answers hold for other players?* Each population's answer
  to one of the questions above, and whether their intervals agree.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

__all__ = [
    "PRIMARY",
    "WORDS",
    "Answer",
    "QuestionKind",
    "Secondary",
    "Word",
    "answers_frame",
    "seat_name",
]

QuestionKind = Literal["seat_balance", "tip_effect", "variant_effect", "best_variant",
                       "populations"]

#: The decision words, the only ones a verdict may use.
Word = Literal[
    "helps", "hurts", "no clear effect", "smaller than the margin", "too few games to tell",
    "unbalanced", "balanced", "no clear seat difference", "best",
    "cannot be told apart from the best", "worse than the best", "cannot tell yet",
    "not applicable",
]
WORDS: tuple[str, ...] = Word.__args__  # type: ignore[attr-defined]

#: The primary measure and test of each kind of question (documented in the module text).
PRIMARY: dict[str, tuple[str, str]] = {
    "seat_balance": ("win share by seat", "chi-square test of equal win counts"),
    "tip_effect": ("focal seat's score difference (points)", "paired t-test over deals"),
    "variant_effect": ("first seat's win share minus its fair share",
                       "paired difference over deals"),
    "best_variant": ("size of the first seat's advantage",
                     "multiple comparisons with the best"),
    "populations": ("each population's primary measure", "overlap of the 95% intervals"),
}


def seat_name(seat: int) -> str:
    """How every table header, verdict and figure names a seat: seats count from 0 and
    seat 0 moves first.

    >>> seat_name(0), seat_name(2)
    ('seat 0 (first player)', 'seat 2')
    """
    return "seat 0 (first player)" if seat == 0 else f"seat {seat}"


@dataclass(frozen=True)
class Secondary:
    """A secondary measure shown beside the primary one, labelled; it never decides."""

    measure: str
    unit: str
    estimate: float
    lo: float = math.nan
    hi: float = math.nan
    p_raw: float = math.nan


@dataclass(frozen=True)
class Answer:
    """One question's answer, the single record every surface renders."""

    kind: QuestionKind
    #: the question in words, e.g. "does actions_first help (4 players, base board)?"
    question: str
    #: who played, e.g. "4 strong players" or "greedy"
    population: str
    #: the primary measure (:data:`PRIMARY`) and its unit ("points", "win share")
    measure: str
    unit: str
    estimate: float
    lo: float
    hi: float
    #: the interval's coverage, e.g. 0.95
    ci: float
    test: str
    p_raw: float
    p_adjusted: float
    #: what p was adjusted over, e.g. "Holm over 4 tips"
    family: str
    word: Word
    #: the difference this run would detect with 80% power (NaN where it means nothing)
    detectable: float
    #: games (or deals) more that would decide it; 0 decided, -1 unknown
    more_games: int
    games: int
    deals: int
    #: whether a figure draws this answer's marker filled (the word is a finding)
    filled: bool
    #: the sentence a person reads
    text: str
    secondary: tuple[Secondary, ...] = field(default_factory=tuple)
    #: per-kind details (e.g. the seats' win shares, the variants in the best set)
    details: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.word not in WORDS:
            raise ValueError(f"answer word {self.word!r} is not one of {WORDS}")

    def with_text(self, text: str) -> Answer:
        return replace(self, text=text)


def answers_frame(answers: list[Answer]) -> Any:
    """The answers as a DataFrame, one row each (the CSV's and tables' source)."""
    import pandas as pd

    rows = []
    for a in answers:
        row = asdict(a)
        row.pop("secondary")
        row.pop("details")
        for s in a.secondary:
            row[f"secondary: {s.measure}"] = s.estimate
        rows.append(row)
    return pd.DataFrame(rows)
