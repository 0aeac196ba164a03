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
  together. Friedman's test on the scores is secondary.
- ``tip_effect`` — *does a tip (a strategy bias) help the player who follows it?* Mean
  score difference of the focal seat against the base arm on the same deals (paired t
  over deals); family: the tips asked together. Win share is secondary.
- ``variant_effect`` — *does a rule variant change the first seat's advantage?* The
  first seat's win share minus its fair share, the variant against the printed rules on
  the same deals (paired t-test over deals); family: the variants asked together. Score
  and length changes are secondary.
- ``best_variant`` — *which of these variants is most balanced?* The size of the first
  seat's advantage; the set of variants that cannot be told apart from the best
  (multiple comparisons with the best); family: the variants in the sweep.
- ``populations`` — *do the answers hold for other players?* Each population's answer
  to one of the questions above, and whether their intervals agree.

Below :data:`MIN_DEALS` deals an answer is "too few games to tell", without a p-value; a
power statement is made only below :data:`LARGEST_EFFECT`. The builders live in
:mod:`hansa_lab.stats.verdicts` (:func:`~hansa_lab.stats.verdicts.tip_effect_answers`,
:func:`~hansa_lab.stats.verdicts.seat_balance_answers`,
:func:`~hansa_lab.stats.verdicts.paired_answers`) and
:func:`hansa_lab.stats.variants.variant_answers`; a run's records:
:meth:`hansa_lab.sim.results.Results.answer_records`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

__all__ = [
    "FINDINGS",
    "LARGEST_EFFECT",
    "MIN_DEALS",
    "PRIMARY",
    "WORDS",
    "Answer",
    "QuestionKind",
    "Secondary",
    "Word",
    "amount",
    "answers_frame",
    "p_phrase",
    "plural",
    "seat_name",
    "shown",
]

QuestionKind = Literal["seat_balance", "tip_effect", "variant_effect", "best_variant",
                       "populations"]

#: The decision words, the only ones a verdict may use.
Word = Literal[
    "helps", "hurts", "no clear effect", "smaller than the margin", "too few games to tell",
    "unbalanced", "balanced", "no clear seat difference", "best",
    "cannot be told apart from the best", "worse than the best", "cannot tell yet",
    "not applicable", "raises", "lowers", "never came into play",
]
WORDS: tuple[str, ...] = Word.__args__  # type: ignore[attr-defined]
#: The words that state a finding: only these fill a figure's marker.
FINDINGS: tuple[str, ...] = ("helps", "hurts", "unbalanced", "raises", "lowers", "best",
                             "worse than the best")

#: The fewest deals (the independent paired units; games for a seat study) any answer
#: other than "too few games to tell" rests on. With fewer, the t interval over deals has
#: 4 or fewer degrees of freedom and its p-value says more than the data hold (2 deals
#: that happen to agree give p < 0.001 and an interval of no width), so below it no
#: finding, significance flag, filled marker or p-value is shown.
MIN_DEALS = 6

#: The largest difference a power statement may name, by unit. A run that would only
#: detect a larger one says "too few games to tell" instead of "would detect ±464 points":
#: a win share moves at most 100 percentage points, and no tip or rule variant of this
#: game moves a player's mean final score by more than 30 points (a typical final score
#: is 40–80 points).
LARGEST_EFFECT: dict[str, float] = {"points": 30.0, "pct points": 100.0,
                                    "percentage points": 100.0, "rounds": 20.0}

#: The primary measure and test of each kind of question (documented in the module text).
PRIMARY: dict[str, tuple[str, str]] = {
    "seat_balance": ("win share by seat", "chi-square test of equal win counts"),
    "tip_effect": ("focal seat's score difference (points)", "paired t-test over deals"),
    "variant_effect": ("first seat's win share minus its fair share",
                       "paired t-test over deals"),
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


def plural(n: float, word: str) -> str:
    """``n word`` with the word in the singular for exactly one.

    >>> plural(1, "deal"), plural(12, "deal"), plural(1.0, "point"), plural(0, "game")
    ('1 deal', '12 deals', '1 point', '0 games')
    """
    text = f"{n:g}" if isinstance(n, float) else str(n)
    return f"{text} {word}" if n == 1 else f"{text} {word}s"


def shown(x: float, spec: str) -> str:
    """``x`` in the format ``spec``, or ``n/a`` when it has no value (NaN or infinite), as
    :func:`format_p` shows a missing p-value.

    >>> shown(0.4375, ".1%"), shown(float("nan"), "+.1f")
    ('43.8%', 'n/a')
    """
    return format(x, spec) if math.isfinite(x) else "n/a"


def amount(x: float, unit: str, digits: int = 1, *, signed: bool = True) -> str:
    """A number with its unit, signed for a difference, in the singular for ±1 exactly.

    >>> amount(5.0, "points"), amount(-1.0, "points"), amount(2.25, "pct points")
    ('+5.0 points', '-1.0 points', '+2.2 pct points')
    """
    return f"{shown(x, f'+.{digits}f' if signed else f'.{digits}f')} {unit}"


def p_phrase(p: float, adjusted: str = "Holm") -> str:
    """A p-value inside a sentence: ``Holm p = 0.012``, ``Holm p < 0.001`` (never
    ``= <``), ``p = 0.210`` for a raw one (``adjusted=""``).

    >>> p_phrase(0.0123), p_phrase(0.0001), p_phrase(0.21, ""), p_phrase(float("nan"))
    ('Holm p = 0.012', 'Holm p < 0.001', 'p = 0.210', 'Holm p not available')
    """
    head = f"{adjusted} p" if adjusted else "p"
    if p is None or not math.isfinite(p):
        return f"{head} not available"
    return f"{head} < 0.001" if p < 0.0005 else f"{head} = {p:.3f}"


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

    def __str__(self) -> str:
        """The sentence a person reads (what ``print(answer)`` and a notebook show)."""
        return self.text

    def _repr_html_(self) -> str:
        """A notebook shows the sentence with its word in bold, as the report does."""
        from html import escape

        marker = "&#9679;" if self.filled else "&#9675;"  # filled / hollow, as the figures
        return (f'<p data-word="{escape(self.word)}" data-filled="{str(self.filled).lower()}">'
                f"{marker} <b>{escape(self.word)}</b> — {escape(self.text)}</p>")

    def with_text(self, text: str) -> Answer:
        """The same answer with another sentence."""
        return replace(self, text=text)

    @property
    def decided(self) -> bool:
        """Whether the word answers the question (a finding, or balance / a small effect
        shown)."""
        return self.word in (*FINDINGS, "balanced", "smaller than the margin")


def answers_frame(answers: Sequence[Answer]) -> Any:
    """The answers as a DataFrame, one row each (the CSV's and tables' source); a
    secondary measure adds its estimate as a column ``secondary: MEASURE``."""
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
