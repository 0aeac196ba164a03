"""The model files a run's players read, part of the run's identity.

A learned player (``learned``, ``strong`` and every strategy built on them) names its model
by a shipped name, a file's path or ``auto`` (the shipped model of the game's board family
and player count). Its games depend on the file's bytes, so a run records, for every
model its arms play in its conditions, the file and its SHA-256
(:func:`model_files`, the ``model_files`` entry of the run's configuration): a resume
after the file changed is refused like one after a strategy file changed, instead of
mixing games of two models in one run.

>>> from hansa_lab.sim.experiment import normalize_experiment
>>> exp = normalize_experiment({"games": 1, "players": 4, "arms": {"a": ["learned"]}})
>>> [(name, record["file"]) for name, record in exp.model_files.items()]
[('learned_base4p_g2', 'hansa_lab/strategies/data/learned_base4p_g2.json')]
>>> normalize_experiment({"games": 1, "arms": {"a": ["random"]}}).model_files
{}
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from hansa_lab.engine.state import GameConfig
from hansa_lab.strategies import make_strategy

__all__ = ["MODEL_PARAM", "changed_models", "model_files", "model_of"]

#: the strategy parameter that names a learned player's model
MODEL_PARAM = "model"
#: the folder shipped paths are shown relative to (so a run's identity does not depend on
#: where the package is installed)
_PACKAGE_ROOT = Path(__file__).resolve().parents[2]


def model_of(spec: str, configs: Iterable[GameConfig]) -> set[str]:
    """The model names or paths the player ``spec`` plays in games of ``configs`` (none:
    it reads no model)."""
    from hansa_lab.strategies.learned import AUTO_MODEL, model_for

    model = make_strategy(spec).params.get(MODEL_PARAM)
    if not isinstance(model, str):
        return set()
    return {model_for(c) for c in configs} if model == AUTO_MODEL else {model}


def _shown(path: Path) -> str:
    """A model file's path as recorded: inside the package, relative to its root."""
    try:
        return path.resolve().relative_to(_PACKAGE_ROOT).as_posix()
    except ValueError:
        return str(path)


def _record(model: str) -> dict[str, Any]:
    from hansa_lab.strategies.learned import find_model

    path = find_model(model)
    try:
        payload = path.read_bytes()
    except OSError as e:
        raise ValueError(f"model file {path}: cannot be read ({e.strerror or e})") from None
    return {"file": _shown(path), "sha256": hashlib.sha256(payload).hexdigest()}


def model_files(specs: Iterable[str], configs: Iterable[GameConfig]) -> dict[str, dict[str, Any]]:
    """Every model the players ``specs`` read in games of ``configs``: model name (or path,
    as the spec gives it) → the file (shipped ones relative to the package's folder) and
    its ``sha256``, in name order. ValueError naming the model that cannot be found or
    read."""
    kinds = {(c.side, c.n_players): c for c in configs}  # all that ``auto`` depends on
    names = set().union(*(model_of(spec, kinds.values()) for spec in dict.fromkeys(specs)))
    return {name: _record(name) for name in sorted(names)}


def changed_models(recorded: Any) -> list[str]:
    """The models of a run's recorded ``model_files`` whose file is missing now or holds
    other bytes (what a replay of its games would not play alike); [] for a run that
    records none."""
    if not isinstance(recorded, dict):
        return []
    changed = []
    for name, record in recorded.items():
        try:
            now = _record(name)["sha256"]
        except ValueError:
            now = None
        if not isinstance(record, dict) or now != record.get("sha256"):
            changed.append(name)
    return changed
