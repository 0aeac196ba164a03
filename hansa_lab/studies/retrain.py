"""Players trained for the rules being studied (``hansa-lab compare --retrain``).

A rule variant changes what a position is worth (one supply cube fewer at the start, City
Keys scoring more), while the shipped models were fitted to games of the printed rules. So
a variant study can give its learned players a model of the variant's own:
:func:`retrained_model` trains one, warm-started from the printed rules' model.

The warm start
    (a) The data are games played *under the variant's rules* by the printed rules'
    players: ``strong`` on the printed model in self-play, beside all-``greedy`` and
    all-``planner`` tables for coverage (:func:`retrain_settings`; the recipe of
    :data:`RETRAIN_GAMES` games per line-up, sampling rate :data:`RETRAIN_RATE`).
    (b) The fit (:func:`~hansa_lab.studies.learn.fit_model` with ``prior``) penalises the
    distance of the weights from the printed model's (rescaled to the new
    standardisation) instead of their size, for the strengths :data:`RETRAIN_ALPHAS`,
    the validation games choosing how far to move; the printed model's kind is kept.

The cache
    The model is written to ``<cache>/retrain_<key>.json`` and its data to
    ``<cache>/retrain_<key>_data``; ``key`` (:func:`retrain_key`) is a short hash of the
    variant's rules (board, players, edition, the options that change the game, sorted),
    the printed model (its name and a hash of its file) and the recipe (line-ups, games,
    rate, chunk, seed, strengths). A model file already there is reused (nothing is
    played); a data folder left half-built resumes where it stopped.

>>> retrain_key("base", 3, "bigbox", (("start_supply", 4),), "learned_base3p") == \\
...     retrain_key("base", 3, "bigbox", [("start_supply", 4)], "learned_base3p")
True
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hansa_lab.engine.board import board_family
from hansa_lab.engine.state import RULE_OPTIONS, GameConfig
from hansa_lab.errors import ModelFileError
from hansa_lab.strategies.learned import AUTO_MODEL, find_model, load_model, model_for
from hansa_lab.studies.learn import (
    LearnSettings,
    build_dataset,
    fit_model,
    write_model,
)

__all__ = ["RETRAIN_ALPHAS", "RETRAIN_GAMES", "RETRAIN_RATE", "RETRAIN_SEED",
           "Retrained", "printed_model",
           "retrain_key", "retrain_settings", "retrained_model"]

#: games per line-up of the default recipe (three line-ups; at 3 players on the base board
#: 5.5 to 9.5 minutes of wall time with 2 jobs on a busy machine, within the 20 minutes:
#: docs/results/learned_players.md, "Players trained for the variant")
RETRAIN_GAMES = 300
#: share of decision points sampled
RETRAIN_RATE = 0.05
#: the warm start's strengths (the pull toward the printed model's weights; large keeps
#: the printed model, small follows the variant's games)
RETRAIN_ALPHAS = (1.0, 10.0, 100.0, 1000.0, 10000.0)
#: games per saved chunk
RETRAIN_CHUNK = 20
#: the data's seed: game ``i`` of a line-up has seed ``41_000_000 + i``, deals no study
#: plays by default (``compare`` starts at 0)
RETRAIN_SEED = 41
#: the version of the recipe (part of the key: a changed recipe trains anew)
RECIPE_VERSION = 1


def printed_model(board: str, n_players: int, model: str = AUTO_MODEL) -> str:
    """The printed rules' model a player of ``model`` plays in games of ``board`` and
    ``n_players`` (``auto``: the shipped model :func:`model_for` picks)."""
    return model_for(GameConfig(n_players, board)) if model == AUTO_MODEL else model


def _changes(n_players: int, board: str, edition: str,
             options: Sequence[tuple[str, Any]]) -> tuple[tuple[str, Any], ...]:
    """The options that change the game (a value equal to the printed one is dropped),
    sorted by name, their values as JSON reads them back; ValueError for a bad one."""
    opts = dict(options)
    for k in opts:
        if k not in RULE_OPTIONS:
            raise ValueError(f"options: unknown rule option {k!r}")
    GameConfig(n_players, board, edition, 0, tuple(opts.items()))  # checked
    plain = json.loads(json.dumps({k: RULE_OPTIONS[k] for k in opts}))
    values = json.loads(json.dumps(opts))
    return tuple(sorted((k, v) for k, v in values.items() if v != plain[k]))


def retrain_settings(board: str, n_players: int, edition: str,
                     options: Sequence[tuple[str, Any]], model: str, *,
                     games: int = RETRAIN_GAMES, seed: int = RETRAIN_SEED) -> LearnSettings:
    """The data of a retraining: ``strong`` on the printed ``model`` in self-play, all
    ``greedy`` and all ``planner`` tables, ``games`` each, under ``options``."""
    strong = f"strong:model={model}"
    lineups = tuple((spec,) * n_players for spec in (strong, "greedy", "planner"))
    return LearnSettings(lineups=lineups, n_players=n_players, board=board, edition=edition,
                         options=_changes(n_players, board, edition, options), games=games,
                         seed=seed, rate=RETRAIN_RATE, chunk=RETRAIN_CHUNK)


def _model_hash(model: str) -> str:
    return hashlib.sha256(find_model(model).read_bytes()).hexdigest()[:16]


def retrain_key(board: str, n_players: int, edition: str, options: Sequence[tuple[str, Any]],
                model: str, *, games: int = RETRAIN_GAMES, seed: int = RETRAIN_SEED) -> str:
    """A short hash of everything a retrained model depends on: the variant's rules (the
    options that change the game, in any order), the printed model (name and file) and
    the recipe; not where it is cached nor how many workers play."""
    settings = retrain_settings(board, n_players, edition, options, model, games=games,
                                seed=seed)
    what = {"data": settings.describe(), "model": model, "model_sha256": _model_hash(model),
            "alphas": list(RETRAIN_ALPHAS), "recipe": RECIPE_VERSION}
    text = json.dumps(what, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class Retrained:
    """A retrained model: its file, key, the printed model it started from, whether the
    cached file was reused, and the training's wall time (seconds; as recorded in the
    file when reused) with the workers it had."""

    path: Path
    key: str
    printed: str
    reused: bool
    wall_seconds: float
    jobs: int

    def line(self) -> str:
        how = "reused from the cache" if self.reused else "trained"
        return (f"{self.path} ({how}; warm start from {self.printed}; training took "
                f"{self.wall_seconds / 60:.1f} min of wall time with {self.jobs} job(s))")


def retrained_model(board: str, n_players: int, edition: str,
                    options: Sequence[tuple[str, Any]], *, model: str = AUTO_MODEL,
                    games: int = RETRAIN_GAMES, seed: int = RETRAIN_SEED, jobs: int = 1,
                    cache: str | Path = Path("results/models"),
                    progress: bool = False) -> Retrained:
    """A model trained for the rules of ``options`` (see the module doc), warm-started
    from the printed rules' ``model`` (``auto``: the shipped one of the board and player
    count); ``jobs`` worker processes play the games. ``progress``: a bar and a line on
    stderr of what is played or reused."""
    printed = printed_model(board, n_players, model)
    prior = load_model(find_model(printed))
    settings = retrain_settings(board, n_players, edition, options, printed, games=games,
                                seed=seed)
    key = retrain_key(board, n_players, edition, options, printed, games=games, seed=seed)
    cache = Path(cache).expanduser()
    path = cache / f"retrain_{key}.json"
    say = ((lambda text: print(text, file=sys.stderr, flush=True)) if progress
           else (lambda text: None))
    rules = ", ".join(f"{k}={json.dumps(v)}" for k, v in settings.options) or "printed rules"
    if path.is_file():
        try:
            done = load_model(path)
        except ModelFileError as e:
            say(f"retrain: {path} cannot be read ({e}); fitting it anew")
        else:
            record = done.meta.get("training", {}).get("retrain", {})
            out = Retrained(path, key, printed, True, float(record.get("wall_seconds", 0.0)),
                            int(record.get("jobs", 0)))
            say(f"retrain ({rules}): {out.line()}")
            return out
    say(f"retrain ({rules}): {len(settings.lineups)} line-ups x {games} games into "
        f"{cache / f'retrain_{key}_data'}")
    start = time.perf_counter()
    ds = build_dataset(settings, cache / f"retrain_{key}_data", jobs=jobs, progress=progress)
    name = f"retrained_{board_family(GameConfig(n_players, board).side)}{n_players}p_{key}"
    report = fit_model(ds, seed, name, alphas=RETRAIN_ALPHAS, kinds=(prior.kind,),
                       prior=prior)
    wall = time.perf_counter() - start
    record = {"retrain": {"printed_model": printed, "printed_sha256": _model_hash(printed),
                          "key": key, "warm_start": "L2 penalty on w - w0 (the printed "
                          "model's weights, rescaled to this standardisation)",
                          "wall_seconds": round(wall, 1), "jobs": jobs}}
    command = ["hansa_lab.studies.retrain.retrained_model", board, str(n_players), edition,
               json.dumps(dict(settings.options)), f"model={printed}", f"games={games}",
               f"seed={seed}"]
    write_model(report, settings, path, command=command, extra=record)
    out = Retrained(path, key, printed, False, wall, jobs)
    say(f"retrain ({rules}): {out.line()}")
    return out
