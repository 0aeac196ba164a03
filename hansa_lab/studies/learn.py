"""Learning a position evaluation from self-play (``hansa-lab learn``).

The data set
    :func:`build_dataset` plays ``games`` self-play games of each chosen line-up in the
    compiled core (board side, player count, edition and rule options are inputs, so a
    rule-knob study can train for the changed rules). Game ``i`` has seed
    ``seed * 1_000_000 + i`` and seats the line-up rotated by ``i`` places. Each decision
    point is sampled with probability ``rate`` (from a stream of its own: sampling does
    not change the game); a sample is every seat's feature vector
    (:data:`feature_names`, computed in the core) labelled with that seat's final
    outcome: ``margin`` (its final score minus the best other seat's) and ``win`` (ranked
    first, ties included). Games are played in chunks of ``chunk`` games, in parallel
    with joblib (``jobs``); every chunk is written as it completes
    (``chunk_NNNN.npz``, atomically), so an interrupted build resumes where it stopped;
    ``settings.json`` in the folder refuses to mix data of other settings.

The model
    :func:`fit_model` splits the games (never samples of one game across parts) 60/20/20
    into fitting, validation and test games by a seeded shuffle; standardises the
    features on the fitting games; fits a ridge regression of the margin and an L2
    logistic regression of the win (both in numpy) for a few regularisation strengths;
    picks the kind and strength with the best validation *winner accuracy* (how often
    the seat the model values most in a position is the game's winner: the ordering a
    one-ply player needs, comparable across both kinds; ``kinds`` may keep one kind: the
    learned players' blend weights were measured with the logistic model, whose values
    are log-odds where the ridge model's are points) and reports, on the test games,
    R² of the margin (ridge), log-loss and accuracy of the win (logistic) and the winner
    accuracy of both. Asked for by name, ``mlp_win`` adds a layer of rectified units to
    the logistic model (Adam in numpy, stopped at the epoch of best validation log-loss,
    refitted on fitting and validation games for as many epochs), so that the value of
    one feature may depend on another (a City Keys level on the network it multiplies).
    :func:`write_model` writes the model file (feature list, weights, standardisation,
    training command, seed, data description, held-out figures).

>>> cfg = LearnSettings(lineups=(("greedy",) * 3,), n_players=3, games=2, seed=1)
>>> [game_seed(cfg, i) for i in range(2)], seat_specs(cfg, 0, 1)
([1000000, 1000001], ['greedy', 'greedy', 'greedy'])
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import shlex
import zipfile
import zlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from hansa_lab.compiled.bridge import core_feature_names, core_sample_games
from hansa_lab.engine.board import A_ACTIONS
from hansa_lab.engine.state import GameConfig
from hansa_lab.errors import ExperimentError
from hansa_lab.play.core_game import core_policy
from hansa_lab.sim.paths import output_file, output_folder
from hansa_lab.sim.progress import progress_bar
from hansa_lab.sim.store import atomic_write, fault_point, is_temp_name, write_bytes
from hansa_lab.strategies import make_strategy
from hansa_lab.strategies.model_file import HiddenLayer, LearnedModel, model_from_json

__all__ = ["ALL_KINDS", "MODEL_KINDS", "TEMPO_FEATURES", "Dataset", "FitReport",
           "LearnSettings", "SeatMeasure", "build_dataset", "feature_names", "fit_model",
           "game_seed", "load_dataset", "measure_seat", "seat_specs", "write_model"]


def feature_names() -> list[str]:
    """The core's feature names, in vector order."""
    return core_feature_names()


@dataclass(frozen=True)
class LearnSettings:
    """What a data set is made of (all of it is recorded in ``settings.json``)."""

    lineups: tuple[tuple[str, ...], ...]
    n_players: int = 4
    board: str = "base"
    edition: str = "bigbox"
    options: tuple[tuple[str, Any], ...] = ()
    games: int = 200  # per line-up
    seed: int = 0
    rate: float = 0.05
    chunk: int = 20
    max_actions: int = 20_000

    def __post_init__(self) -> None:
        for k, lineup in enumerate(self.lineups):
            if len(lineup) != self.n_players:
                raise ValueError(f"line-up {k + 1} ({','.join(lineup)}) has {len(lineup)} "
                                 f"seats for {self.n_players} players")
        if not 0.0 < self.rate <= 1.0:
            raise ValueError(f"rate must be within (0, 1], got {self.rate}")
        if self.games < 1 or self.chunk < 1:
            raise ValueError("games and chunk must be at least 1")

    def config(self, seed: int) -> GameConfig:
        return GameConfig(self.n_players, board=self.board, edition=self.edition,
                          seed=seed, options=self.options)

    def describe(self) -> dict[str, Any]:
        d = asdict(self)
        d["lineups"] = [",".join(x) for x in self.lineups]
        d["options"] = dict(self.options)
        return d


def game_seed(settings: LearnSettings, i: int) -> int:
    """The seed of game ``i`` of a line-up (the same for every line-up)."""
    return settings.seed * 1_000_000 + i


def seat_specs(settings: LearnSettings, lineup: int, i: int) -> list[str]:
    """The strategies of game ``i`` of line-up ``lineup``, seat by seat (rotated)."""
    specs = list(settings.lineups[lineup])
    k = i % len(specs)
    return specs[k:] + specs[:k]


@dataclass
class Dataset:
    """Samples: ``x`` (one row per sampled position and seat), ``margin``, ``win``,
    ``game`` (a global game number: line-up × games + i), ``seat``, ``round``."""

    x: np.ndarray
    margin: np.ndarray
    win: np.ndarray
    game: np.ndarray
    seat: np.ndarray
    round: np.ndarray
    games: int = 0

    def __len__(self) -> int:
        return len(self.margin)


def _play_chunk(settings: LearnSettings, lineup: int, start: int, stop: int) -> dict[str, Any]:
    config = settings.config(0)
    xs, margins, wins, games, seats, rounds = [], [], [], [], [], []
    n = settings.n_players
    ended = 0
    for i in range(start, stop):
        twins = [core_policy(make_strategy(s), config) for s in seat_specs(settings, lineup, i)]
        policies = [p for p in twins if p is not None]
        if len(policies) < len(twins):
            raise ValueError("every strategy of a learning line-up must play in the core")
        (_, rnd, feats, totals, ranks, _, done), = core_sample_games(
            config, policies, [game_seed(settings, i)], settings.rate, settings.max_actions)
        ended += bool(done)
        k = len(rnd)
        f = np.asarray(feats, dtype=np.float64).reshape(k * n, -1) if k else None
        if f is None:
            continue
        tot = np.asarray(totals)
        best_other = np.array([np.max(np.delete(tot, p)) for p in range(n)])
        xs.append(f)
        margins.append(np.tile(tot - best_other, k))
        wins.append(np.tile(np.asarray(ranks) == 1, k))
        games.append(np.full(k * n, lineup * settings.games + i))
        seats.append(np.tile(np.arange(n), k))
        rounds.append(np.repeat(np.asarray(rnd), n))
    width = len(core_feature_names())

    def cat(parts: list[np.ndarray], dtype: Any, shape: tuple[int, ...] = (0,)) -> np.ndarray:
        return np.concatenate(parts).astype(dtype) if parts else np.zeros(shape, dtype)

    return {"x": cat(xs, np.float64, (0, width)), "margin": cat(margins, np.float64),
            "win": cat(wins, bool), "game": cat(games, np.int64), "seat": cat(seats, np.int8),
            "round": cat(rounds, np.int32), "ended": ended, "n": stop - start}


def _chunks(settings: LearnSettings) -> list[tuple[int, int, int, str]]:
    out = []
    for lineup in range(len(settings.lineups)):
        for start in range(0, settings.games, settings.chunk):
            stop = min(settings.games, start + settings.chunk)
            out.append((lineup, start, stop, f"chunk_{lineup:02d}_{start:06d}.npz"))
    return out


#: The writes of ``learn`` where a kill is tested (``HANSA_LAB_FAULT``, see
#: :func:`~hansa_lab.sim.store.fault_point`): each file is written under a temporary name,
#: synced, then renamed, so a kill at any of them leaves either the old file or the new.
LEARN_TRANSITIONS = (
    "learn_settings_temp_written",  # settings.json written under its temp name
    "learn_settings_written",       # settings.json in place, no chunk played yet
    "learn_chunk_temp_written",     # a chunk's arrays written under its temp name
    "learn_chunk_written",          # the chunk in place
    "learn_model_temp_written",     # the model file written under its temp name
    "learn_model_written",          # the model file in place
)


def _write_chunk(folder: Path, name: str, part: dict[str, Any]) -> None:
    atomic_write(folder / name, lambda f: np.savez(f, **part), fault="learn_chunk")
    fault_point("learn_chunk_written")


def _remove_dead_temp_files(folder: Path) -> None:
    """Temporary files a killed ``learn`` left in ``folder`` (those of a process that still
    runs are left alone)."""
    for path in folder.iterdir():
        if not is_temp_name(path.name):
            continue
        pid = path.name.rpartition(".tmp-")[2]
        if pid.isdigit() and not _running(int(pid)):
            with contextlib.suppress(OSError):
                path.unlink()


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # e.g. another user's process
        return True
    return True


def _run_chunk(settings: LearnSettings, folder: str, task: tuple[int, int, int, str]) -> str:
    lineup, start, stop, name = task
    _write_chunk(Path(folder), name, _play_chunk(settings, lineup, start, stop))
    return name


def build_dataset(settings: LearnSettings, folder: str | Path, jobs: int = 1,
                  progress: bool = False) -> Dataset:
    """Play (or resume) the data set of ``settings`` into ``folder`` and load it
    (``progress``: a bar of the games played, with the time left, on stderr).

    Raises :class:`~hansa_lab.errors.ExperimentError` when ``folder`` holds data of other
    settings (naming the first that differs); chunks already written are kept."""
    folder = output_folder(folder, "data")
    folder.mkdir(parents=True, exist_ok=True)
    meta = folder / "settings.json"
    wanted = {**settings.describe(), "features": feature_names()}
    if meta.exists() or meta.is_symlink():
        have = _read_settings(meta)
        diff = [k for k in sorted(set(have) | set(wanted))
                if k != "games" and have.get(k) != wanted.get(k)]
        if diff:
            raise ExperimentError(
                "data", f"{folder} holds a data set with other settings ({diff[0]}: "
                f"{have.get(diff[0])!r} there, {wanted.get(diff[0])!r} now); use another "
                "folder")
    _remove_dead_temp_files(folder)
    write_bytes(meta, (json.dumps(wanted, indent=1) + "\n").encode("utf-8"),
                fault="learn_settings")
    fault_point("learn_settings_written")
    chunks = _chunks(settings)
    todo = [t for t in chunks if not (folder / t[3]).exists()]
    games = {t[3]: t[2] - t[1] for t in chunks}
    jobs = min(jobs, len(todo))  # one worker per chunk at most
    if todo:
        total = sum(games.values())
        with progress_bar(total, initial=total - sum(games[t[3]] for t in todo),
                          desc="learn data", unit="game", enabled=progress) as bar:
            if jobs <= 1:
                for t in todo:
                    bar.update(games[_run_chunk(settings, str(folder), t)])
            else:
                from joblib import Parallel, delayed

                for name in Parallel(n_jobs=jobs, backend="loky",
                                     return_as="generator_unordered")(
                        delayed(_run_chunk)(settings, str(folder), t) for t in todo):
                    bar.update(games[name])
    return load_dataset(settings, folder)


def _read_settings(meta: Path) -> dict[str, Any]:
    """``settings.json`` of a data folder (ExperimentError: not the settings of one)."""
    try:
        have = json.loads(meta.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as e:
        raise ExperimentError("data", f"{meta} cannot be read as a data set's settings "
                              f"({type(e).__name__}: {e}); use another folder") from None
    if not isinstance(have, dict):
        raise ExperimentError("data", f"{meta} holds {type(have).__name__}, not the "
                              "settings of a data set (a JSON object); use another folder")
    return have


#: the arrays of a chunk file, and the dimensions each has
CHUNK_COLUMNS = {"x": 2, "margin": 1, "win": 1, "game": 1, "seat": 1, "round": 1}


def _read_chunk(path: Path, names: list[str]) -> dict[str, np.ndarray]:
    """One chunk file, checked: every column present, of matching lengths, ``x`` as wide
    as the feature list, and every feature and margin finite (ExperimentError naming the
    file and the column; the chunk is to be deleted and played again)."""
    again = "delete it and run the same command again to play it anew"
    try:
        z = np.load(path, allow_pickle=False)
        if not isinstance(z, np.lib.npyio.NpzFile):  # one array (.npy), not a chunk
            raise ValueError("one array, not the arrays of a chunk")
        with z:
            missing = [k for k in CHUNK_COLUMNS if k not in z.files]
            part = {k: z[k] for k in CHUNK_COLUMNS if k in z.files}
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile, zlib.error) as e:
        raise ExperimentError("data", f"{path} cannot be read as a data chunk "
                              f"({type(e).__name__}: {e}); {again}") from None
    if missing:
        raise ExperimentError("data", f"{path} is not a chunk of this data set (no "
                              f"{missing[0]!r} array); {again}")
    x = part["x"]
    rows = x.shape[0] if x.ndim == 2 else -1
    for k, dims in CHUNK_COLUMNS.items():
        a = part[k]
        if a.ndim != dims or len(a) != rows or not (np.issubdtype(a.dtype, np.number)
                                                    or a.dtype == bool):
            raise ExperimentError("data", f"{path}: column {k!r} has shape {a.shape} and "
                                  f"type {a.dtype}, not {rows} numbers per row; {again}")
    if x.shape[1] != len(names):
        raise ExperimentError("data", f"{path}: {x.shape[1]} feature columns, the core "
                              f"computes {len(names)}; {again}")
    bad = np.flatnonzero(~np.isfinite(x).all(axis=0))
    if len(bad):
        col = int(bad[0])
        n_bad = int((~np.isfinite(x[:, col])).sum())
        raise ExperimentError("data", f"{path}: column {names[col]!r} (feature {col}) holds "
                              f"{n_bad} value(s) that are not finite numbers (NaN or "
                              f"infinite) in {rows} rows; {again}")
    if not np.isfinite(part["margin"]).all():
        raise ExperimentError("data", f"{path}: column 'margin' holds values that are not "
                              f"finite numbers; {again}")
    return part


def load_dataset(settings: LearnSettings, folder: str | Path) -> Dataset:
    """The data set's chunks (those of ``settings``) read back from ``folder``, each
    checked (ExperimentError naming a chunk that is unreadable, misshapen or holds a
    number that is not finite, and its column)."""
    parts = []
    names = feature_names()
    for _, _, _, name in _chunks(settings):
        path = Path(folder) / name
        if not path.exists():
            raise ExperimentError("data", f"{path} is missing: run build_dataset first")
        parts.append(_read_chunk(path, names))
    col = {k: np.concatenate([p[k] for p in parts]) for k in
           ("x", "margin", "win", "game", "seat", "round")}
    return Dataset(col["x"], col["margin"], col["win"], col["game"], col["seat"],
                   col["round"], games=settings.games * len(settings.lineups))


# ---- fitting ---------------------------------------------------------------------------


@dataclass
class FitReport:
    """The chosen model and what was measured (validation: choice; test: report)."""

    model: LearnedModel
    kind: str
    alpha: float
    validation: dict[str, dict[str, float]]
    test: dict[str, float]
    split: dict[str, int] = field(default_factory=dict)
    epochs: int = 0  # mlp_win: the epochs of the final fit (those that validated best)


def _split(ds: Dataset, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    games = np.unique(ds.game)
    rng = np.random.default_rng(seed)
    order = rng.permutation(games)
    a, b = int(0.6 * len(order)), int(0.8 * len(order))
    parts = (set(order[:a].tolist()), set(order[a:b].tolist()), set(order[b:].tolist()))
    return tuple(np.isin(ds.game, list(p)) for p in parts)  # type: ignore[return-value]


def _ridge(z: np.ndarray, y: np.ndarray, alpha: float,
           w0: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """Ridge regression, the penalty on ``w - w0`` (``w0``: 0, or a warm start's prior)."""
    bias = float(y.mean())
    a = z.T @ z + alpha * np.eye(z.shape[1])
    w = np.linalg.solve(a, z.T @ (y - bias) + (0.0 if w0 is None else alpha * w0))
    return w, bias


def _logistic(z: np.ndarray, y: np.ndarray, alpha: float, iterations: int = 50,
              w0: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """L2-penalised logistic regression (the bias unpenalised) by Newton's method; the
    penalty is on ``w - w0`` (``w0``: 0, or a warm start's prior, where Newton starts)."""
    n, d = z.shape
    za = np.hstack([z, np.ones((n, 1))])
    prior = np.zeros(d + 1) if w0 is None else np.append(np.asarray(w0, float), 0.0)
    w = prior.copy()
    pen = np.full(d + 1, alpha)
    pen[-1] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(za @ w)))
        grad = za.T @ (p - y) + pen * (w - prior)
        h = (za * (p * (1 - p))[:, None]).T @ za + np.diag(pen) + 1e-9 * np.eye(d + 1)
        step = np.linalg.solve(h, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return w[:-1], float(w[-1])


def _winner_accuracy(value: np.ndarray, ds: Dataset, mask: np.ndarray) -> float:
    """Share of sampled positions where the seat valued most is a winner of the game."""
    idx = np.flatnonzero(mask)
    if not len(idx):
        return float("nan")
    # the rows of one position are consecutive, seat 0 first
    position = np.cumsum(ds.seat[idx] == 0)
    v = value[idx]
    order = np.lexsort((-v, position))  # by position, best value first
    first = np.ones(len(order), dtype=bool)
    first[1:] = position[order][1:] != position[order][:-1]
    return float(ds.win[idx][order][first].mean())


def _metrics(kind: str, v: np.ndarray, ds: Dataset, mask: np.ndarray) -> dict[str, float]:
    out = {"winner_accuracy": _winner_accuracy(v, ds, mask)}
    y = ds.margin[mask]
    if kind == "ridge_margin":
        ss = float(((y - y.mean()) ** 2).sum())
        out["r2_margin"] = 1.0 - float(((y - v[mask]) ** 2).sum()) / ss if ss else float("nan")
        out["win_accuracy"] = float(((v[mask] > 0) == ds.win[mask]).mean())
    else:
        p = np.clip(1.0 / (1.0 + np.exp(-v[mask])), 1e-12, 1 - 1e-12)
        w = ds.win[mask]
        out["log_loss"] = float(-(w * np.log(p) + (~w) * np.log(1 - p)).mean())
        out["win_accuracy"] = float(((p > 0.5) == w).mean())
        base = float(w.mean())
        out["log_loss_base_rate"] = float(-(base * math.log(base) + (1 - base)
                                            * math.log(1 - base))) if 0 < base < 1 else 0.0
    return out


#: features left out of the fit (weight 0): who is to act and the actions left change at
#: every action of a turn, so a one-ply player comparing positions inside its turn would
#: read them as gains or losses of the position (measured: with them it shuffled pieces)
TEMPO_FEATURES = ("own_is_active", "own_seats_until_turn", "rival_is_active",
                  "rival_seats_until_turn", "actions_left")


#: the model kinds :func:`fit_model` fits and chooses among by default
MODEL_KINDS = ("ridge_margin", "logistic_win")
#: every kind it fits: also ``mlp_win``, the logistic model with a layer of
#: :data:`HIDDEN_UNITS` rectified units beside its linear part (fitted only when asked
#: for: it takes about a minute where the linear kinds take seconds)
ALL_KINDS = (*MODEL_KINDS, "mlp_win")
#: the hidden layer of ``mlp_win``: units, L2 penalty per sample, mini-batch, Adam's step,
#: the most epochs and how many epochs without a better validation log-loss end the fit
HIDDEN_UNITS = 32
HIDDEN_L2 = 1e-3
HIDDEN_BATCH = 512
HIDDEN_STEP = 1e-3
HIDDEN_EPOCHS = 60
HIDDEN_PATIENCE = 6


@dataclass
class _Net:
    """The parameters of ``mlp_win``: value = b + z·w + Σ_j u_j · max(0, a_j + W_j·z)."""

    w: np.ndarray
    b: float
    W: np.ndarray
    a: np.ndarray
    u: np.ndarray
    epochs: int = 0

    def value(self, z: np.ndarray) -> np.ndarray:
        return self.b + z @ self.w + np.maximum(z @ self.W.T + self.a, 0.0) @ self.u


def _mlp(z: np.ndarray, y: np.ndarray, rows: np.ndarray, w0: np.ndarray, b0: float,
         keep: np.ndarray, seed: int, *, epochs: int = HIDDEN_EPOCHS,
         stop_on: tuple[Dataset, np.ndarray] | None = None) -> _Net:
    """Fit ``mlp_win`` on the samples ``rows`` of ``z`` (log-loss of the win ``y`` plus
    :data:`HIDDEN_L2` · |params|², mini-batches of :data:`HIDDEN_BATCH` by Adam, seeded),
    the linear part started at the logistic model ``w0``, ``b0`` and the hidden layer's
    output at 0 (so it starts as that model). Features left out (``~keep``) get no hidden
    weight. With ``stop_on`` (the data set and its validation rows) the parameters of the
    epoch with the best validation log-loss are returned, after :data:`HIDDEN_PATIENCE`
    epochs without a better one; without it, those after ``epochs`` epochs."""
    rng = np.random.default_rng(seed)
    d = z.shape[1]
    W = rng.normal(0.0, 1.0 / math.sqrt(d), (HIDDEN_UNITS, d))
    W[:, ~keep] = 0.0
    a, u, w, b = np.zeros(HIDDEN_UNITS), np.zeros(HIDDEN_UNITS), w0.copy(), np.array([b0])
    params = [W, a, u, w, b]  # updated in place
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    idx = np.flatnonzero(rows)
    step = 0
    best: tuple[float, int, list[np.ndarray]] | None = None
    for epoch in range(epochs):
        rng.shuffle(idx)
        for k in range(0, len(idx), HIDDEN_BATCH):
            batch = idx[k:k + HIDDEN_BATCH]
            x = z[batch]
            pre = x @ W.T + a
            act = np.maximum(pre, 0.0)
            g = (1.0 / (1.0 + np.exp(-(b[0] + x @ w + act @ u))) - y[batch]) / len(batch)
            g_pre = np.outer(g, u) * (pre > 0)
            grads = [g_pre.T @ x + HIDDEN_L2 * W, g_pre.sum(axis=0), act.T @ g + HIDDEN_L2 * u,
                     x.T @ g + HIDDEN_L2 * w, np.array([g.sum()])]
            step += 1
            for p, grad, m1, m2 in zip(params, grads, first, second, strict=True):
                m1 *= 0.9
                m1 += 0.1 * grad
                m2 *= 0.999
                m2 += 0.001 * grad * grad
                p -= HIDDEN_STEP * (m1 / (1 - 0.9 ** step)) / (
                    np.sqrt(m2 / (1 - 0.999 ** step)) + 1e-8)
        if stop_on is not None:
            ds, val = stop_on
            loss = _metrics("logistic_win", _Net(w, float(b[0]), W, a, u).value(z), ds,
                            val)["log_loss"]
            if best is None or loss < best[0]:
                best = (loss, epoch, [p.copy() for p in params])
            elif epoch - best[1] >= HIDDEN_PATIENCE:
                break
    if best is not None:
        W, a, u, w, b = best[2]
    return _Net(w, float(b[0]), W, a, u, epochs=best[1] + 1 if best is not None else epochs)


def fit_model(ds: Dataset, seed: int, name: str,
              alphas: tuple[float, ...] = (0.1, 1.0, 10.0, 100.0),
              kinds: tuple[str, ...] = MODEL_KINDS,
              prior: LearnedModel | None = None) -> FitReport:
    """Fit, choose on validation games and report on test games (see the module doc);
    ``kinds``: the kinds to choose among (the linear two by default; ``mlp_win`` builds
    on the logistic model of the strength that validates best).

    ``prior`` (a warm start): a linear model of one kind, then the only kind fitted; the
    L2 penalty is on the distance of the weights from the prior's, rescaled to this
    fit's standardisation (the same function of the raw features, up to the bias), so a
    large strength keeps the prior and a small one follows the data; the validation
    games choose between them."""
    unknown = [k for k in kinds if k not in ALL_KINDS]
    if unknown or not kinds:
        raise ValueError(f"model kinds must be among {', '.join(ALL_KINDS)}, got "
                         f"{', '.join(kinds) or 'none'}")
    if prior is not None:
        if prior.hidden is not None or prior.kind not in MODEL_KINDS:
            raise ValueError(f"a warm start needs a linear model ({', '.join(MODEL_KINDS)}), "
                             f"got {prior.name!r} of kind {prior.kind}")
        if tuple(kinds) != (prior.kind,):
            raise ValueError(f"a warm start fits the prior's kind only ({prior.kind}), got "
                             f"kinds {', '.join(kinds)}")
        if tuple(prior.features) != tuple(feature_names()):
            raise ValueError(f"the prior {prior.name!r} has other features than the core "
                             "computes")
    if len(np.unique(ds.game)) < 5:
        raise ValueError("need samples from at least 5 games to fit and hold games out")
    fit, val, test = _split(ds, seed)
    names = feature_names()
    keep = np.array([n not in TEMPO_FEATURES for n in names])

    def standardised(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        mean = ds.x[rows].mean(axis=0)
        scale = ds.x[rows].std(axis=0)
        scale[scale < 1e-9] = 1.0
        mean[~keep], scale[~keep] = 0.0, 1.0
        z = (ds.x - mean) / scale
        z[:, ~keep] = 0.0  # left out: their weights fit to 0
        return mean, scale, z

    win = ds.win.astype(float)
    pull: np.ndarray | None = None  # the prior's weights on the current standardisation

    def toward(scale: np.ndarray) -> np.ndarray | None:
        if prior is None:
            return None
        w = np.asarray(prior.weights, float) * scale / np.asarray(prior.scale, float)
        w[~keep] = 0.0
        return w

    def linear(kind: str, z: np.ndarray, rows: np.ndarray,
               alpha: float) -> tuple[np.ndarray, float]:
        if kind == "ridge_margin":
            return _ridge(z[rows], ds.margin[rows], alpha * rows.sum() / 1000, pull)
        return _logistic(z[rows], win[rows], alpha, w0=pull)

    mean, scale, z = standardised(fit)
    pull = toward(scale)
    validation: dict[str, dict[str, float]] = {}
    best: tuple[float, str, float] | None = None
    logistic: dict[float, tuple[np.ndarray, float, float]] = {}
    for kind in [k for k in MODEL_KINDS if k in kinds or (k == "logistic_win"
                                                            and "mlp_win" in kinds)]:
        for alpha in alphas:
            w, b = linear(kind, z, fit, alpha)
            m = _metrics(kind, z @ w + b, ds, val)
            if kind == "logistic_win":
                logistic[alpha] = (w, b, m["winner_accuracy"])
            if kind not in kinds:
                continue
            validation[f"{kind}:{alpha:g}"] = m
            if best is None or m["winner_accuracy"] > best[0] + 1e-12:
                best = (m["winner_accuracy"], kind, alpha)
    epochs = 0
    if "mlp_win" in kinds:
        alpha = max(logistic, key=lambda a: logistic[a][2])  # the first of the best
        w0, b0, _ = logistic[alpha]
        net = _mlp(z, win, fit, w0, b0, keep, seed, stop_on=(ds, val))
        epochs = net.epochs
        m = _metrics("logistic_win", net.value(z), ds, val)
        validation[f"mlp_win:{alpha:g}"] = m
        if best is None or m["winner_accuracy"] > best[0] + 1e-12:
            best = (m["winner_accuracy"], "mlp_win", alpha)
    assert best is not None
    _, kind, alpha = best
    # refit on fitting + validation games with the chosen strength (and, for the network,
    # as many epochs as validated best), report on test
    both = fit | val
    mean, scale, z = standardised(both)
    pull = toward(scale)
    hidden: HiddenLayer | None = None
    if kind == "mlp_win":
        w0, b0 = linear("logistic_win", z, both, alpha)
        net = _mlp(z, win, both, w0, b0, keep, seed, epochs=epochs)
        w, b, v = net.w, net.b, net.value(z)
        hidden = HiddenLayer(tuple(tuple(map(float, r)) for r in net.W),
                             tuple(map(float, net.a)), tuple(map(float, net.u)))
        test_m = dict(_metrics("logistic_win", v, ds, test))
        others = [("logistic_win", w0, b0)]
    else:
        w, b = linear(kind, z, both, alpha)
        test_m = dict(_metrics(kind, z @ w + b, ds, test))
        other = "logistic_win" if kind == "ridge_margin" else "ridge_margin"
        others = [(other, *linear(other, z, both, alpha))]
    for other, wo, bo in others:
        test_m.update({f"{other}.{k}": x for k, x in
                       _metrics(other, z @ wo + bo, ds, test).items()})
    model = LearnedModel(name, kind, tuple(feature_names()), tuple(map(float, mean)),
                         tuple(map(float, scale)), tuple(map(float, w)), float(b), {},
                         hidden)
    split = {"fit_games": len(np.unique(ds.game[fit])), "validation_games":
             len(np.unique(ds.game[val])), "test_games": len(np.unique(ds.game[test])),
             "samples": len(ds)}
    return FitReport(model, kind, alpha, validation, test_m, split, epochs)


def write_model(report: FitReport, settings: LearnSettings, path: str | Path,
                command: list[str] | None = None, fit_seed: int | None = None,
                extra: dict[str, Any] | None = None) -> Path:
    """Write the model file: the model, how it was trained and what it measured
    (``extra``: more entries of its ``training`` record, e.g. a warm start). The file
    is checked as :func:`~hansa_lab.strategies.model_file.load_model` reads it before it is
    written: a model with a number that is not finite raises ``ModelFileError`` and
    nothing is written (nor for an ``ExperimentError`` of ``path``, field ``out``)."""
    path = Path(path)
    m = report.model
    meta = {
        "training": {
            "command": shlex.join(command) if command else "",
            "seed": settings.seed if fit_seed is None else fit_seed,
            "data": settings.describe(),
            "split": report.split,
            "choice": (f"{report.kind} with strength {report.alpha:g}"
                       + (f" ({HIDDEN_UNITS} hidden units, L2 {HIDDEN_L2:g}, "
                          f"{report.epochs} epochs)" if report.kind == "mlp_win" else "")
                       + ": best validation winner accuracy"),
            "validation": report.validation,
            **(extra or {}),
        },
        "heldout": report.test,
    }
    full = LearnedModel(m.name, m.kind, m.features, m.mean, m.scale, m.weights, m.bias, meta,
                        m.hidden)
    path = output_file(path, "out")
    d = full.to_json()
    model_from_json(d, path)  # ModelFileError (nothing written): a file no player could load
    path.parent.mkdir(parents=True, exist_ok=True)
    write_bytes(path, (json.dumps(d, indent=1) + "\n").encode("utf-8"), fault="learn_model")
    fault_point("learn_model_written")
    return path




# ---- measuring a player ----------------------------------------------------------------


@dataclass
class SeatMeasure:
    """One challenger seat against a line-up of opponents, seat-rotated: its win share
    (ties shared) with a Wilson interval, mean margin, CPU seconds per game (one
    process, ``time.process_time``) beside a reference table on the same deals, and how
    far each side developed Actions (the challenger's mean level at the end, and the
    opponents' mean over their seats: how many developments of Actions a game)."""

    challenger: str
    opponents: str
    games: int
    wins: float
    win_share: float
    win_lo: float
    win_hi: float
    margin_mean: float
    cpu_per_game: float
    reference: str = ""
    reference_cpu_per_game: float = float("nan")
    cost_ratio: float = float("nan")
    actions_developed: float = float("nan")
    opponents_actions_developed: float = float("nan")

    def line(self) -> str:
        """The measure in one line; a figure without a value (no games) reads ``n/a``."""
        from hansa_lab.stats.answers import shown

        wins = (f"{self.win_share:.1%} [{shown(self.win_lo, '.1%')}, "
                f"{shown(self.win_hi, '.1%')}]" if math.isfinite(self.win_share) else "n/a")
        return (f"{self.challenger} one seat vs {self.opponents}: {self.games} games, wins "
                f"{wins}, margin {shown(self.margin_mean, '+.1f')}, "
                f"{shown(self.cpu_per_game, '.3f')} CPU-s/game"
                + (f", Actions developed {self.actions_developed:.2f} a game (opponents "
                   f"{shown(self.opponents_actions_developed, '.2f')})"
                   if self.actions_developed == self.actions_developed else "")
                + (f"; {self.reference} table {shown(self.reference_cpu_per_game, '.3f')} "
                   f"CPU-s/game (ratio {shown(self.cost_ratio, '.2f')})"
                   if self.reference else ""))


def measure_seat(challenger: str, opponent: str, *, n_players: int = 4, board: str = "base",
                 deals: int = 25, seed: int = 5_000_000, reference: str = "greedy",
                 options: tuple[tuple[str, Any], ...] = ()) -> SeatMeasure:
    """``challenger`` in one seat, ``opponent`` in the others, on ``deals`` deals (seeds
    ``seed + d``) each played in every seat rotation; then the ``reference`` strategy in
    every seat on the same deals, for the cost ratio. Played in the compiled core."""
    import time

    from hansa_lab.engine.scoring import final_scores, winners
    from hansa_lab.play import play_game
    from hansa_lab.stats.intervals import wilson_interval

    wins, margins, cpu = 0.0, [], 0.0
    own_actions: list[int] = []
    their_actions: list[int] = []
    for d in range(deals):
        config = GameConfig(n_players, board=board, seed=seed + d, options=options)
        for seat in range(n_players):
            lineup = [opponent] * n_players
            lineup[seat] = challenger
            t = time.process_time()
            rec = play_game(config, lineup, engine="core")
            cpu += time.process_time() - t
            won = winners(rec.final)
            wins += (seat in won) / len(won)
            scores = final_scores(rec.final)
            margins.append(scores[seat] - max(s for i, s in enumerate(scores) if i != seat))
            levels = [rec.final.levels[p][A_ACTIONS] for p in range(n_players)]
            own_actions.append(levels[seat])
            their_actions.extend(v for p, v in enumerate(levels) if p != seat)
    games = deals * n_players
    lo, hi = wilson_interval(wins, games)
    out = SeatMeasure(challenger, opponent, games, wins, wins / games, float(lo), float(hi),
                      float(np.mean(margins)), cpu / games,
                      actions_developed=float(np.mean(own_actions)),
                      opponents_actions_developed=float(np.mean(their_actions)))
    if reference:
        t = time.process_time()
        for d in range(deals):
            config = GameConfig(n_players, board=board, seed=seed + d, options=options)
            play_game(config, [reference] * n_players, engine="core")
        out.reference = reference
        out.reference_cpu_per_game = (time.process_time() - t) / deals
        out.cost_ratio = out.cpu_per_game / out.reference_cpu_per_game
    return out
