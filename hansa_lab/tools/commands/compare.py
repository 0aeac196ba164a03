"""``hansa-lab compare``: a designer's question — *which of these rule variants is most
balanced?* — from one command, with no experiment file to write.

``hansa-lab compare --players 3 --option start_supply=3,4,5,6,7`` builds the sweep (one
or two options, every combination of their values, and the printed rules, named
``default``), with one population in every seat (``--population``, default ``greedy``),
plans its size for the question's primary measure (the size of seat 0 (first player)'s
advantage, :mod:`hansa_lab.stats.best`), plays it through the runner (a resumable run
folder, a progress bar), and ends with the answer line, the report's path and the CSV's
path. ``--plan`` prints the plan and stops; ``--until-decided`` plays in rounds and stops
as soon as one variant is the best (or at the planned maximum), its intervals widened for
the repeated looks (Bonferroni over the planned looks).

The same from Python in one call: :func:`compare` (``hansa_lab.compare``).

``--ladder`` asks it of every rung of the skill ladder
(:func:`hansa_lab.studies.skill.skill_rungs`, novice first) instead of one population: one
comparison per rung (its own run folder), each variant's first-seat advantage rung by rung,
and for each variant where that answer stops changing along the ladder
(:func:`hansa_lab.stats.convergence.advantage_convergence`): :func:`compare_ladder`.

``--retrain`` plays every variant a second time, the population's learned player on a
model trained for that variant's rules (:func:`hansa_lab.studies.retrain.retrained_model`:
a warm start from the printed rules' model, cached by the variant's rules), each variant as
a run of its own in ``<out>/retrained/<variant>`` on the same deals. ``default`` is
retrained too, by the same recipe on the printed rules: the recipe's data are not the
printed model's own, so without it the two answers would differ by the recipe as well as
by the rules. It says whether re-training changed the answer: each variant's first-seat
advantage both ways, the most balanced both ways and one sentence
(:func:`retrain_sentence`), printed and written to ``<out>/retrain.txt``.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hansa_lab.tools.commands.common import (
    PLAYERS,
    SEED,
    CliError,
    check_duration,
    positive_int,
    run_guarded,
    worker_count,
)

if TYPE_CHECKING:
    import pandas as pd

    from hansa_lab.sim.results import Results
    from hansa_lab.stats.answers import Answer
    from hansa_lab.stats.balance import BalanceAnswers
    from hansa_lab.stats.convergence import Convergence
    from hansa_lab.tools.commands.common import Subcommands

__all__ = ["DEFAULT_DIFFERENCE", "ComparePlan", "Comparison", "LadderComparison",
           "RetrainComparison", "add_compare", "compare", "compare_ladder", "plan_compare",
           "retrain_sentence"]

#: The smallest difference in the size of seat 0's advantage worth telling apart, as a
#: win share (5 percentage points: a seat winning 38% instead of 33% of 3-player games).
DEFAULT_DIFFERENCE = 0.05
#: The largest difference a plan names; a size that would only tell a larger one is
#: "too few games to tell" (a rule variant does not move a seat's win share by more).
MAX_TOLD = 0.25
#: Looks at the data of ``--until-decided`` (rounds of games), the Bonferroni split.
DEFAULT_LOOKS = 4
#: The most options one comparison sweeps (their values' grid is played in full).
MAX_OPTIONS = 2
#: Parameter names → the flags that set them (the messages name the parameter first).
_FLAGS = {"players": "--players", "option": "--option", "population": "--population",
          "board": "--board", "edition": "--edition", "games": "--games",
          "difference": "--difference", "looks": "--looks", "seed": "--seed",
          "out": "--out", "n_jobs": "--jobs"}


def parse_option(text: str) -> tuple[str, list[Any]]:
    """``--option NAME=V1,V2,...`` as (name, values): the values as JSON where they
    parse (``3,4,5``; lists as ``[4,6,7,8],[3,6,7,8]``), else as text.

    >>> parse_option("start_supply=3,4,5")
    ('start_supply', [3, 4, 5])
    >>> parse_option("start_supply_seats=[4,6,7,8],[3,6,7,8]")[1]
    [[4, 6, 7, 8], [3, 6, 7, 8]]
    """
    name, eq, rest = text.partition("=")
    name = name.strip()
    if not eq or not name or not rest.strip():
        raise ValueError(f"option: write NAME=VALUE1,VALUE2,... (e.g. start_supply=3,4,5), "
                         f"got {text!r}")
    try:
        values = json.loads(f"[{rest}]")
    except ValueError:
        values = []
        for part in rest.split(","):
            part = part.strip()
            try:
                values.append(json.loads(part))
            except ValueError:
                values.append(part)
    return name, values


def _options(option: Mapping[str, Sequence[Any]] | Sequence[str] | str
             ) -> dict[str, list[Any]]:
    """The swept options, checked: known names, one or two of them, two or more
    distinct values each."""
    from hansa_lab.engine.state import RULE_OPTIONS

    if isinstance(option, str):
        option = [option]
    pairs = (list(option.items()) if isinstance(option, Mapping)
             else [parse_option(text) for text in option])
    if not pairs:
        raise ValueError("option: name the rule option to compare and its values, e.g. "
                         "start_supply=3,4,5,6,7 (hansa-lab options lists them)")
    if len(pairs) > MAX_OPTIONS:
        raise ValueError(f"option: compare sweeps one or two options, got {len(pairs)} "
                         f"({', '.join(k for k, _ in pairs)})")
    out: dict[str, list[Any]] = {}
    for name, values in pairs:
        if name not in RULE_OPTIONS:
            raise ValueError(f"option: unknown rule option {name!r} (hansa-lab options "
                             "lists them)")
        if name in out:
            raise ValueError(f"option: {name} is given twice; list its values once "
                             f"({name}=A,B,C)")
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
            raise ValueError(f"option: {name}: give a list of values to compare, got "
                             f"{values!r}")
        distinct = list(dict.fromkeys(json.dumps(v, sort_keys=True) for v in values))
        if len(distinct) < 2:
            raise ValueError(f"option: {name}: give at least two different values to "
                             f"compare (e.g. {name}=A,B), got {list(values)!r}")
        out[name] = [json.loads(v) for v in distinct]
    return out


def _population(population: str, n_players: int) -> list[str]:
    """The population's one strategy spec (played in every seat), checked."""
    from hansa_lab.strategies.lineup import split_specs

    specs = split_specs(population or "")
    if len(specs) != 1:
        raise ValueError(f"population: name one strategy spec, played in every seat (e.g. "
                         f"greedy or strong), got {population!r}")
    return specs


def _default_out(n_players: int, options: Mapping[str, Any], population: str) -> str:
    keys = "-".join(options)
    who = "".join(ch if ch.isalnum() or ch in "_-" else "_" for ch in population)
    return f"results/compare_{n_players}p_{keys}_{who}"


def _spec(players: int, options: Mapping[str, list[Any]], population: str, board: str,
          edition: str, seed: int, games: int, name: str) -> dict[str, Any]:
    """The experiment: the population in every seat, the options' grid as a sweep."""
    return {"name": name, "description": f"compare: which variant is most balanced "
                                         f"({players} players, {population})",
            "games": games, "players": players, "board": board, "edition": edition,
            "seed": seed, "log": "summary", "arms": {population: [population]},
            "sweep": {k: list(v) for k, v in options.items()}}


def _experiment(spec: Mapping[str, Any]) -> Any:
    """The normalised experiment; its errors as ``ValueError`` naming the parameter."""
    from hansa_lab.errors import ExperimentError
    from hansa_lab.sim.experiment import normalize_experiment

    try:
        return normalize_experiment(dict(spec), default_name=str(spec["name"]))
    except ExperimentError as e:
        head = e.field.split(".")[0].split("[")[0]
        where = {"sweep": "option", "arms": "population", "players": "players",
                 "board": "board", "edition": "edition", "seed": "seed",
                 "games": "games"}.get(head, head)
        raise ValueError(f"{where}: {e.message}") from None


@dataclass(frozen=True)
class ComparePlan:
    """How many games a comparison needs: ``games`` per variant to tell apart two
    variants whose first-seat advantages differ in size by ``difference`` (a win share)
    with 80% power, at the sweep's simultaneous 95% level (split over ``looks``)."""

    variants: tuple[str, ...]
    n_players: int
    population: str
    difference: float
    looks: int
    games: int
    #: games actually asked for (``games=``), when given: the plan then says what they detect
    games_given: int | None = None
    detectable: float = math.nan

    @property
    def total_games(self) -> int:
        """Games in all, every variant."""
        return (self.games_given or self.games) * len(self.variants)

    def __str__(self) -> str:
        k = len(self.variants)
        looks = (f", the 5% error split over {self.looks} looks at the data"
                 if self.looks > 1 else "")
        names = ", ".join(f"{v} (the printed rules)" if v == "default" else v
                          for v in self.variants)
        head = (f"plan: {k} variants ({names}), {self.n_players} "
                f"{self.population} players. To tell apart two variants whose seat 0 (first "
                f"player) advantages differ by {100 * self.difference:.1f} percentage "
                f"points of win share (80% power, simultaneous 95% intervals{looks}): "
                f"{self.games:,} games per variant, {self.games * k:,} in all.")
        if self.games_given is not None and self.detectable > MAX_TOLD:
            head += (f" With {self.games_given:,} games per variant ({self.total_games:,} "
                     f"in all) too few games to tell: only a difference of more than "
                     f"{100 * MAX_TOLD:.0f} percentage points would show.")
        elif self.games_given is not None:
            head += (f" With {self.games_given:,} games per variant ({self.total_games:,} "
                     f"in all) a difference of {100 * self.detectable:.1f} percentage "
                     "points can be told.")
        return head


def plan_compare(players: int = 3, option: Any = (), population: str = "greedy",
                 board: str = "base", edition: str = "bigbox",
                 difference: float = DEFAULT_DIFFERENCE, looks: int = 1,
                 games: int | None = None, seed: int = 0) -> ComparePlan:
    """The plan of a comparison (see :class:`ComparePlan`; the arguments as for
    :func:`compare`), checked as :func:`compare` checks them, without playing."""
    from hansa_lab.stats.best import games_to_separate, plan_games_per_variant

    if not (isinstance(difference, (int, float)) and 0 < difference < 1):
        raise ValueError(f"difference: the smallest difference that matters, a win share "
                         f"between 0 and 1 (0.05 = 5 percentage points), got {difference!r}")
    if looks < 1:
        raise ValueError(f"looks: at least 1, got {looks}")
    options = _options(option)
    specs = _population(population, players)
    exp = _experiment(_spec(players, options, specs[0], board, edition, seed, games or 1,
                            "plan"))
    names = tuple(dict.fromkeys(c.variant for c in exp.conditions))
    k = len(names)
    need = plan_games_per_variant(k, players, difference, looks=looks)
    detect = math.nan
    if games is not None:
        s = math.sqrt((1 / players) * (1 - 1 / players))
        detect = difference * math.sqrt(games_to_separate(difference, s, s, k, looks=looks)
                                        / games)
    return ComparePlan(names, players, specs[0], float(difference), looks, need, games,
                       detect)


@dataclass(frozen=True)
class Comparison:
    """A comparison's answer: ``answer`` (the line), ``variants`` (one answer per
    variant), ``table`` (their rows), the run (``results``), the report's and CSV's
    paths, and the plan it was sized by. Printed: the answer line."""

    answer: Answer
    variants: tuple[Answer, ...]
    balance: BalanceAnswers
    results: Results
    plan: ComparePlan
    report_path: Path | None
    csv_path: Path | None
    looks: int = 1
    rounds: list[int] = field(default_factory=list)
    #: with ``retrain``: the same question with retrained players, side by side
    retrained: RetrainComparison | None = None

    @property
    def table(self) -> pd.DataFrame:
        """One row per variant: seat 0's advantage and the seat gap with intervals, the
        p-value of "worse than the best" and the word (display style)."""
        from hansa_lab.stats.balance import variant_view

        return variant_view(self.balance.table)

    def __str__(self) -> str:
        return self.answer.text

    def _repr_html_(self) -> str:
        from html import escape

        from hansa_lab.stats.display import table_html

        paths = "".join(f"<p>{escape(k)}: {escape(str(v))}</p>" for k, v in (
            ("report", self.report_path), ("answers", self.csv_path)) if v is not None)
        again = (f"<pre>{escape(str(self.retrained))}</pre>" if self.retrained is not None
                 else "")
        return (f"<p><b>{escape(self.answer.text)}</b></p>" + table_html(self.table)
                + paths + again)


def _stored_games(out: Path) -> int:
    """Games per variant already in a run folder (0 when there is none)."""
    try:
        manifest = json.loads((out / "manifest.json").read_text("utf-8"))
        return int(manifest.get("configuration", {}).get("games", 0))
    except (OSError, ValueError, TypeError, AttributeError):
        return 0


def _retrain_population(population: str) -> str:
    """The population's ``model`` value, checked to be a player of a learned model
    (``--retrain`` trains that model; ValueError naming the population otherwise)."""
    from hansa_lab.strategies import make_strategy

    try:
        player = make_strategy(population)
    except ValueError as e:
        raise ValueError(f"population: {e}") from None
    if "model" not in player.params:
        raise ValueError(f"population: --retrain trains the model a learned player plays; "
                         f"{population!r} takes no model= (retrain strong or learned, or "
                         "compare without --retrain)")
    return str(player.params["model"])


def _with_model(population: str, path: Path) -> str:
    """The population's spec playing the model file at ``path``."""
    from hansa_lab.strategies.base import parse_strategy_spec

    text = str(path)
    if "," in text:
        raise ValueError(f"retrain: the model file's path {text!r} holds a comma, which a "
                         "strategy spec cannot carry; choose another cache folder")
    name, params = parse_strategy_spec(population)
    params = {**params, "model": text}
    return name + ":" + ",".join(f"{k}={v}" for k, v in params.items())


def retrain_sentence(printed: Sequence[str], retrained: Sequence[str]) -> str:
    """Whether re-training changed the answer, from the two best sets (the variants that
    cannot be told apart from the most balanced one, printed-rules players first): it
    changed only when the sets share no variant; sets that differ but overlap are no
    evidence that it changed.

    >>> retrain_sentence(["a"], ["b"])[:36]
    're-training changed the answer: most'
    >>> retrain_sentence(["a", "b"], ["b"]).split(":")[0]
    're-training did not change the answer (no evidence it changed'
    """
    def one(best: Sequence[str]) -> str:
        return best[0] if len(best) == 1 else "one of " + ", ".join(best)

    common = [v for v in printed if v in retrained]
    if not common:
        return (f"re-training changed the answer: most balanced with the printed rules' "
                f"players: {one(printed)}; with players retrained for each variant: "
                f"{one(retrained)}.")
    if list(printed) == list(retrained):
        return f"re-training did not change the answer (most balanced both ways: {one(printed)})."
    return (f"re-training did not change the answer (no evidence it changed: most balanced "
            f"with the printed rules' players: {one(printed)}; retrained: {one(retrained)}; "
            f"both hold {', '.join(common)}).")


@dataclass(frozen=True)
class RetrainComparison:
    """A comparison played twice: by the population on the printed rules' model and, every
    variant, on a model retrained for its rules (``default``: by the same recipe on the
    printed rules). ``printed`` and ``retrained``: the two answers
    (:class:`~hansa_lab.stats.best.MostBalanced`), ``models``: each variant's model
    (:class:`~hansa_lab.studies.retrain.Retrained`), ``sentence``:
    :func:`retrain_sentence`, ``path``: ``retrain.txt``."""

    printed: Any
    retrained: Any
    models: dict[str, Any]
    sentence: str
    path: Path | None = None

    def lines(self) -> list[str]:
        """The side-by-side table (seat 0's advantage with its simultaneous interval, each
        way), the most balanced each way, the models and the sentence."""
        def cell(a: Any) -> str:
            return f"{a.estimate:+.1%} [{a.lo:+.1%}, {a.hi:+.1%}]"

        retrained = {a.details["variant"]: a for a in self.retrained.variants}
        names = [a.details["variant"] for a in self.printed.variants]
        width = max(len("variant"), *(len(n) for n in names))
        head = "printed rules' model"
        out = ["Re-training: seat 0 (first player) advantage, printed rules' model and "
               "retrained, simultaneous 95% intervals",
               f"  {'variant':<{width}}  {head:<26}  retrained model"]
        for a in self.printed.variants:
            name = a.details["variant"]
            b = retrained.get(name)
            other = "(not played)" if b is None else cell(b)
            moved = b is not None and (b.lo > a.hi or b.hi < a.lo)
            out.append(f"  {name:<{width}}  {cell(a):<26}  {other}"
                       + ("  moved" if moved else ""))
        out += [f"  printed rules' model: {self.printed.answer.text}",
                f"  retrained: {self.retrained.answer.text}"]
        out += [f"  model for {name}: {m.line()}" for name, m in self.models.items()]
        return [*out, self.sentence]

    def __str__(self) -> str:
        return "\n".join(self.lines())


def _retrain(players: int, options: Mapping[str, list[Any]], population: str, board: str,
             edition: str, seed: int, games: int, folder: Path, printed: Any, looks: int,
             n_jobs: int, progress: bool, force: bool, cache: str | Path,
             retrain_games: int | None = None) -> RetrainComparison:
    """Every variant (``default`` too) played by ``population`` on its retrained model (its
    own run in ``folder/retrained/<variant>``, ``games`` games on the deals of ``seed``)
    and both answers side by side."""
    import pandas as pd

    from hansa_lab.sim.paths import safe_name
    from hansa_lab.sim.runner import run_experiment
    from hansa_lab.stats.best import most_balanced_of
    from hansa_lab.studies.retrain import RETRAIN_GAMES, retrained_model

    model = _retrain_population(population)
    exp = _experiment(_spec(players, options, population, board, edition, seed, games,
                            "retrain"))
    rows = []
    models: dict[str, Any] = {}
    for c in exp.conditions:
        m = retrained_model(board, players, edition, c.options, model=model, jobs=n_jobs,
                            games=retrain_games or RETRAIN_GAMES, cache=cache,
                            progress=progress)
        models[c.variant] = m
        spec = {"name": safe_name(c.variant, "variant"),
                "description": f"compare --retrain: {c.variant} on its retrained model",
                "games": games, "players": players, "board": board, "edition": edition,
                "seed": seed, "log": "summary", "options": json.loads(json.dumps(
                    dict(c.options))),
                "arms": {population: [_with_model(population, m.path)]}}
        res = run_experiment(spec, out=folder / "retrained" / safe_name(c.variant, "variant"),
                             n_jobs=n_jobs, progress=progress, force=force)
        t = res.balance()
        t = pd.DataFrame(getattr(t, "full", t)).assign(options=c.variant)
        rows.append(t)
    both = pd.concat(rows, ignore_index=True)
    answer = most_balanced_of(both, looks=looks, population=f"{population} retrained")
    first = printed.balance.sweeps[0]
    path = (folder / "retrain.txt").resolve()
    result = RetrainComparison(first, answer, models,
                               retrain_sentence(first.best_set, answer.best_set), path)
    path.write_text(str(result) + "\n", "utf-8")
    return result


def compare(players: int = 3, option: Any = (), population: str = "greedy", *,
            board: str = "base", edition: str = "bigbox", games: int | None = None,
            difference: float = DEFAULT_DIFFERENCE, until_decided: bool = False,
            looks: int = DEFAULT_LOOKS, out: str | Path | None = None, seed: int = 0,
            n_jobs: int = 1, progress: bool = True, force: bool = False,
            report: bool = True, on_look: Any = None, retrain: bool = False,
            retrain_cache: str | Path = "results/models",
            retrain_games: int | None = None) -> Comparison:
    """Which of several rule variants makes ``players``-player games most balanced, among
    ``population`` players (one strategy spec, in every seat)?

    ``option``: the options to compare and their values, ``{"start_supply": [3, 4, 5]}``
    (or ``"start_supply=3,4,5"`` texts); one or two options, every combination of their
    values is a variant, and the printed rules are always one (``default``).
    ``games``: per variant (default: the plan's for ``difference``, a win share).
    ``until_decided``: play in ``looks`` rounds up to ``games`` (or the plan's size) and
    stop when one variant is the best; the intervals are then simultaneous over the
    variants and the planned looks (Bonferroni). Writes the run to ``out`` (default
    ``results/compare_<players>p_<options>_<population>``; resumable), ``answers.csv``
    and, with ``report``, ``report.html`` there. ``on_look(games, answer)`` is called
    after each round. ``retrain``: then every variant again (``default`` too), the
    population (a learned player: ``strong``, ``learned``) on a model retrained for its
    rules (cached in ``retrain_cache``; ``retrain_games``: games per line-up of its data,
    default the recipe's), and the two answers side by side (the module doc;
    :attr:`Comparison.retrained`). Returns a :class:`Comparison`; bad arguments raise
    ``ValueError`` naming the parameter.

    Each round extends the run folder; the runner numbers a sweep's games variant by
    variant, so an extension replays the games of every variant but the first (a run to
    its last of four rounds plays about 2.5 times one full-size round).
    """
    from hansa_lab.sim.exports import export_run
    from hansa_lab.sim.paths import output_folder
    from hansa_lab.sim.runner import run_experiment
    from hansa_lab.stats.answers import answers_frame

    looks = looks if until_decided else 1
    plan = plan_compare(players, option, population, board, edition, difference, looks,
                        games, seed)
    options = _options(option)
    if retrain:
        _retrain_population(plan.population)  # a population with no model: refused first
    folder = Path(out if out is not None else
                  _default_out(players, options, plan.population)).expanduser()
    output_folder(str(folder), "out")
    maximum = games or plan.games
    if until_decided:
        rounds = sorted({max(1, math.ceil(maximum * (r + 1) / looks)) for r in range(looks)})
        stored = 0 if force else _stored_games(folder)
        rounds = [g for g in rounds if g >= stored] or [stored]
    else:
        rounds = [maximum]
    played: list[int] = []
    res: Any = None
    answer: Any = None
    for i, n in enumerate(rounds):
        spec = _spec(players, options, plan.population, board, edition, seed, n,
                     folder.resolve().name or "compare")
        res = run_experiment(spec, out=folder, n_jobs=n_jobs, progress=progress,
                             force=force and i == 0)
        played.append(n)
        answer = res.most_balanced(looks=looks)
        if on_look is not None:
            on_look(n, answer)
        if until_decided and answer.sweeps and answer.answer.word == "best":
            break
    assert res is not None and answer is not None
    if answer.empty:
        raise RuntimeError(f"{folder}: no two variants finished games to compare")
    (folder / "compare.json").write_text(json.dumps(
        {"looks": looks, "rounds": played, "difference": difference,
         "population": plan.population, "players": players,
         "options": {k: v for k, v in options.items()}}, indent=1) + "\n", "utf-8")
    export_run(res, folder, csv=True, figures=False)
    # answers.csv: this question's records first, then the run's other answers
    records = list(answer.answers)
    others = getattr(res, "answer_records", None)
    if callable(others):
        records += [a for a in others() if a.kind != "best_variant"]
    csv_path = folder / "answers.csv"
    answers_frame(records).to_csv(csv_path, index=False)
    report_path = None
    if report:
        from hansa_lab.viz.report import write_report

        report_path = write_report(res, folder / "report.html",
                                   figures_folder=folder / "figures")
    out_cmp = Comparison(answer.answer, answer.sweeps[0].variants, answer, res, plan,
                         report_path, csv_path.resolve(), looks, played)
    if not retrain:
        return out_cmp
    again = _retrain(players, options, plan.population, board, edition, seed, played[-1],
                     folder, out_cmp, looks, n_jobs, progress, force, retrain_cache,
                     retrain_games)
    return replace(out_cmp, retrained=again)


@dataclass(frozen=True)
class LadderComparison:
    """:func:`compare_ladder`'s answer: the comparison of every rung, the first-seat
    advantage of every variant rung by rung (``table``) and each variant's convergence
    along the ladder."""

    rungs: tuple[str, ...]
    comparisons: dict[str, Comparison]
    #: one row per rung and variant: population (the rung), question (``variant NAME``),
    #: estimate/lo/hi (the first seat's advantage, Wilson), first_seat_win, games, verdict
    table: pd.DataFrame
    convergence: tuple[Convergence, ...]

    def lines(self) -> list[str]:
        """Each rung's answer line, then each variant's convergence."""
        out = [f"{rung}: {self.comparisons[rung].answer.text}" for rung in self.rungs]
        return [*out, "", "Along the ladder (novice first):",
                *(f"  {c.text}" for c in self.convergence)]


def compare_ladder(players: int = 3, option: Any = (), *, board: str = "base",
                   edition: str = "bigbox", games: int | None = None,
                   difference: float = DEFAULT_DIFFERENCE, out: str | Path | None = None,
                   seed: int = 0, n_jobs: int = 1, progress: bool = True,
                   force: bool = False) -> LadderComparison:
    """:func:`compare` for every rung of the skill ladder of ``players`` on ``board``
    (novice first), each in its own folder ``<out>/<rung>``, the same deals for every rung
    (``seed``), then each variant's first-seat advantage rung by rung and where it stops
    changing (:func:`~hansa_lab.stats.convergence.advantage_convergence`). ``games``: per
    variant and rung (default: each rung's plan, which for the slow top rungs is long)."""
    import pandas as pd

    from hansa_lab.sim.paths import safe_name
    from hansa_lab.stats.convergence import advantage_convergence, advantage_verdict
    from hansa_lab.studies.skill import skill_rungs

    rungs = skill_rungs(board, players)
    root = Path(out if out is not None else _default_out(players, _options(option), "ladder"))
    comparisons: dict[str, Comparison] = {}
    rows = []
    for rung in rungs:
        folder = root / safe_name(rung.label, "rung")
        c = compare(players, option, rung.spec, board=board, edition=edition, games=games,
                    difference=difference, out=folder, seed=seed, n_jobs=n_jobs,
                    progress=progress, force=force, report=False)
        comparisons[rung.label] = c
        for r in c.results.balance().itertuples(index=False):
            rows.append({"population": rung.label, "question": f"variant {r.options}",
                         "estimate": float(r.first_seat_adv), "lo": float(r.adv_lo),
                         "hi": float(r.adv_hi), "first_seat_win": float(r.first_seat_win),
                         "games": int(r.games),
                         "verdict": advantage_verdict(int(r.games), float(r.adv_lo),
                                                      float(r.adv_hi))})
    table = pd.DataFrame(rows)
    labels = [r.label for r in rungs]
    convergence = tuple(advantage_convergence(table, str(q), labels)
                        for q in dict.fromkeys(table["question"]))
    return LadderComparison(tuple(labels), comparisons, table, convergence)


def _flag(message: str) -> str:
    """A message naming a parameter (``option: ...``) with the flag instead."""
    head, colon, rest = message.partition(":")
    return f"{_FLAGS[head]}:{rest}" if colon and head in _FLAGS else message


def _difference(text: str) -> float:
    """``--difference`` in percentage points of win share (5 → 0.05)."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--difference must be a number of percentage "
                                         f"points, got {text!r}") from None
    if not (math.isfinite(v) and 0 < v < 100):
        raise argparse.ArgumentTypeError(f"--difference must be between 0 and 100 "
                                         f"percentage points, got {text}")
    return v / 100


def cmd_compare(args: argparse.Namespace) -> int:
    """Plan, play and answer "which variant is most balanced?"; print the answer line,
    the report's path and the CSV's."""
    from hansa_lab.stats.terminal import wrap_text
    from hansa_lab.tools.commands.common import jobs

    if not args.option:
        raise CliError("--option: name the rule option to compare and its values, e.g. "
                       "--option start_supply=3,4,5,6,7 (hansa-lab options lists them)")
    if args.retrain and args.ladder:
        raise CliError("--retrain: retrains one population's model; not with --ladder")
    if args.ladder and (args.population is not None or args.until_decided):
        raise CliError("--ladder: the ladder's rungs are the populations, played to --games "
                       "each; not with --population or --until-decided")
    args.population = "greedy" if args.population is None else args.population
    looks = args.looks if args.until_decided else 1
    if args.out is not None and not args.plan:
        from hansa_lab.errors import ExperimentError
        from hansa_lab.sim.paths import output_folder

        try:
            output_folder(args.out, "--out")
        except ExperimentError as e:
            raise CliError(str(e)) from None
    try:
        plan = plan_compare(args.players, args.option, args.population, args.board,
                            args.edition, args.difference, looks, args.games, args.seed)
        if args.retrain:
            _retrain_population(plan.population)
    except ValueError as e:
        raise CliError(_flag(str(e))) from None
    print(wrap_text(str(plan)), flush=True)
    if args.plan:
        return 0
    check_duration((args.games or plan.games) * len(plan.variants), jobs(args.jobs),
                   args.yes)
    if args.ladder:
        return _cmd_ladder(args)

    def look(n: int, answer: BalanceAnswers) -> None:
        if args.until_decided and answer.sweeps:
            print(wrap_text(f"  after {n:,} games per variant: {answer.answer.word}"),
                  flush=True)

    def run() -> Comparison:
        try:
            return compare(args.players, args.option, args.population, board=args.board,
                           edition=args.edition, games=args.games,
                           difference=args.difference, until_decided=args.until_decided,
                           looks=args.looks, out=args.out, seed=args.seed,
                           n_jobs=args.jobs, progress=not args.no_progress,
                           force=args.force, on_look=look, retrain=args.retrain)
        except ValueError as e:
            raise CliError(_flag(str(e))) from None

    result = run_guarded(run)
    assert isinstance(result, Comparison)
    from hansa_lab.stats.display import table_text

    print()
    print(table_text(result.table))
    print()
    for line in result.balance.lines():
        print(wrap_text(line))
    print(f"\nThe report (tables, figure, methods; opens offline):\n  {result.report_path}")
    print(f"The answers as CSV (one row per variant and the answer line):\n  "
          f"{result.csv_path}")
    if result.retrained is not None:
        print()
        for line in result.retrained.lines():
            print(line if line.startswith("  ") else wrap_text(line))
        print(f"(written to {result.retrained.path})")
    return 0


def _cmd_ladder(args: argparse.Namespace) -> int:
    """``compare --ladder``: every rung's answer line, the first-seat advantage per
    variant and rung, and each variant's convergence along the ladder."""
    from hansa_lab.stats.terminal import wrap_text

    def run() -> LadderComparison:
        try:
            return compare_ladder(args.players, args.option, board=args.board,
                                  edition=args.edition, games=args.games,
                                  difference=args.difference, out=args.out, seed=args.seed,
                                  n_jobs=args.jobs, progress=not args.no_progress,
                                  force=args.force)
        except ValueError as e:
            raise CliError(_flag(str(e))) from None

    result = run_guarded(run)
    assert isinstance(result, LadderComparison)
    from hansa_lab.sim.results import format_table

    shown = result.table.assign(
        advantage=[f"{e:+.1%} [{lo:+.1%}, {hi:+.1%}]" for e, lo, hi in
                   zip(result.table["estimate"], result.table["lo"], result.table["hi"],
                       strict=True)])
    print()
    print(format_table(shown[["population", "question", "games", "advantage", "verdict"]]
                       .rename(columns={"population": "rung",
                                        "advantage": "seat 0 (first player) advantage"})))
    print()
    for line in result.lines():
        print(wrap_text(line))
    return 0


def add_compare(sub: Subcommands) -> None:
    """Register ``hansa-lab compare``."""
    p = sub.add_parser("compare", help="which rule variant is most balanced: sweep one or "
                       "two options, answer with honest uncertainty (no file to write)")
    p.add_argument("--players", type=PLAYERS, default=3, help="number of players (default 3)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=V1,V2,...",
                   help="a rule option and the values to compare (once or twice), e.g. "
                        "start_supply=3,4,5,6,7; hansa-lab options lists them")
    p.add_argument("--population", default=None,
                   help="the strategy spec in every seat, e.g. greedy (default) or strong")
    p.add_argument("--retrain", action="store_true",
                   help="also play every variant on a model retrained for its "
                        "rules (a learned population: strong, learned; cached in "
                        "results/models) and say whether that changed the answer")
    p.add_argument("--ladder", action="store_true",
                   help="ask it of every rung of the skill ladder (novice first) and say "
                        "where each variant's first-seat advantage stops changing")
    p.add_argument("--board", default="base", help="base (default), or a side like base_3p")
    p.add_argument("--edition", default="bigbox", help="bonus-marker edition: bigbox|original")
    p.add_argument("--games", type=positive_int("--games"), default=None,
                   help="games per variant (default: the plan's; with --until-decided "
                        "the most to play)")
    p.add_argument("--difference", type=_difference, default=DEFAULT_DIFFERENCE,
                   metavar="POINTS", help="the smallest difference in seat 0 (first "
                   "player)'s advantage worth telling, in percentage points of win share "
                   "(default 5)")
    p.add_argument("--plan", action="store_true",
                   help="print the games per variant the question needs and stop")
    p.add_argument("--until-decided", action="store_true",
                   help="play in rounds; stop as soon as one variant is the best")
    p.add_argument("--looks", type=positive_int("--looks", 20), default=DEFAULT_LOOKS,
                   help=f"with --until-decided: rounds of games (default {DEFAULT_LOOKS}); "
                        "the 5%% error is split over them")
    p.add_argument("--seed", type=SEED, default=0, help="first seed")
    p.add_argument("--jobs", type=worker_count, default=1,
                   help="worker processes (default 1; -1: all cores)")
    p.add_argument("--out", default=None,
                   help="results folder (default results/compare_<players>p_<options>_"
                        "<population>); the same command again resumes it")
    p.add_argument("--force", action="store_true", help="replay instead of resuming")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--yes", action="store_true",
                   help="start even when the run cannot finish within a day")
    p.set_defaults(func=cmd_compare)
