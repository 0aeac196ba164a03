"""Learned model files: the records (:class:`LearnedModel`, :class:`HiddenLayer`) and the
one reader that checks everything the compiled core relies on before a game starts.

:func:`load_model` refuses, with a :class:`~hansa_lab.errors.ModelFileError` naming the
file and the field, anything the core or a player would trip over later: a path that is
not a readable file (missing, a folder, a name too long), a file over
:data:`MAX_MODEL_BYTES` (refused before it is parsed), text that is not JSON or is nested
deeper than :data:`MAX_NESTING`, an unknown ``format`` or ``kind`` (or a kind the format
cannot hold), a feature list that is not the core's ``FEATURE_NAMES`` in order (a name
missing, extra, repeated or moved), an entry that is not a finite number of double
precision (``null``, a string, NaN, ±infinity, a 400-digit integer), a scale that is not
positive, a hidden layer of the wrong shape or with more than :data:`MAX_HIDDEN_UNITS`
units, and recorded training settings that contradict themselves (a player count outside
2–5, an unknown board or edition, a line-up with another number of seats). The core then
checks the model again (:func:`model_from_json` hands it over once), so the two can never
disagree in the player's favour. :func:`model_from_json` applies the same checks to a
model about to be written (``hansa-lab learn`` never writes a file it would refuse).

>>> from hansa_lab.strategies.learned import find_model
>>> load_model(find_model("learned_base4p")).kind
'logistic_win'
"""

from __future__ import annotations

import json
import math
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hansa_lab.errors import ModelFileError

__all__ = ["HIDDEN_MODEL_FORMAT", "MAX_HIDDEN_UNITS", "MAX_MODEL_BYTES", "MAX_NESTING",
           "MODEL_FORMAT", "MODEL_KINDS", "HiddenLayer", "LearnedModel", "load_model",
           "model_from_json"]

#: the ``format`` field of a linear model file this version reads and writes
MODEL_FORMAT = "hansa_lab.learned_model/1"
#: the ``format`` field of a model file with a hidden layer (``kind`` ``mlp_win``): a
#: reader that knows only :data:`MODEL_FORMAT` refuses it instead of playing its linear
#: part alone
HIDDEN_MODEL_FORMAT = "hansa_lab.learned_model/2"
#: the ``kind`` each format holds
MODEL_KINDS = {MODEL_FORMAT: ("logistic_win", "ridge_margin"),
               HIDDEN_MODEL_FORMAT: ("mlp_win",)}
#: the largest model file read (a 256-unit hidden layer with its training record takes
#: about 1 MB; the shipped files take 12 kB to 100 kB)
MAX_MODEL_BYTES = 16 * 1024 * 1024
#: the deepest nesting of lists and objects a model file may have (written files have 5)
MAX_NESTING = 32
#: the most hidden units the core plays (``MAX_HIDDEN_UNITS`` in
#: ``core/src/strategies/learned.rs``)
MAX_HIDDEN_UNITS = 256
#: the longest file or folder name the file systems take (bytes)
_NAME_MAX = 255
#: the fields the model itself is made of (the rest of the file is kept as ``meta``)
_MODEL_FIELDS = ("format", "name", "kind", "features", "mean", "scale", "weights", "bias",
                 "hidden")


@dataclass(frozen=True)
class HiddenLayer:
    """Rectified units on the standardised features ``z``, added to a model's linear
    value: ``Σ_j output[j] · max(0, bias[j] + Σ_i weights[j][i] · z_i)``."""

    weights: tuple[tuple[float, ...], ...]  # one row of feature weights per unit
    bias: tuple[float, ...]
    output: tuple[float, ...]

    def to_json(self) -> dict[str, Any]:
        return {"weights": [list(r) for r in self.weights], "bias": list(self.bias),
                "output": list(self.output)}

    def core_args(self) -> tuple[list[float], list[float], list[float]]:
        return ([w for r in self.weights for w in r], list(self.bias), list(self.output))


@dataclass(frozen=True)
class LearnedModel:
    """A model over the core's features: ``value = bias + Σ weights·z`` with ``z = (x −
    mean) / scale``, plus the ``hidden`` layer's output when it has one (``kind``
    ``logistic_win``: the log-odds of winning, linear; ``mlp_win``: the same with a
    hidden layer; ``ridge_margin``: the final score margin over the best other seat,
    linear). ``meta`` keeps the rest of the file (training command, seed, data
    description, held-out figures)."""

    name: str
    kind: str
    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    meta: dict[str, Any]
    hidden: HiddenLayer | None = None

    def forward(self, x: list[float]) -> float:
        """The model's value of one feature vector (the trainer's formula, in Python)."""
        z = [(v - m) / s for v, m, s in zip(x, self.mean, self.scale, strict=True)]
        value = self.bias + math.fsum(w * zi for w, zi in zip(self.weights, z, strict=True))
        if self.hidden is not None:
            h = self.hidden
            value += math.fsum(out * max(0.0, b + math.fsum(w * zi for w, zi in
                                                            zip(row, z, strict=True)))
                               for row, b, out in zip(h.weights, h.bias, h.output,
                                                      strict=True))
        return value

    def to_json(self) -> dict[str, Any]:
        d = {"format": MODEL_FORMAT if self.hidden is None else HIDDEN_MODEL_FORMAT,
             "name": self.name, "kind": self.kind,
             "features": list(self.features), "mean": list(self.mean),
             "scale": list(self.scale), "weights": list(self.weights), "bias": self.bias}
        if self.hidden is not None:
            d["hidden"] = self.hidden.to_json()
        return {**d, **self.meta}

    def core_args(self) -> tuple[list[str], list[float], list[float], list[float], float]:
        """The linear part, as the core's model functions take it first (the hidden
        layer goes as their ``hidden`` keyword: :meth:`core_hidden`)."""
        return (list(self.features), list(self.mean), list(self.scale),
                list(self.weights), self.bias)

    def core_hidden(self) -> tuple[list[float], list[float], list[float]] | None:
        """The hidden layer as the core's ``hidden`` keyword takes it (None: linear)."""
        return None if self.hidden is None else self.hidden.core_args()


def load_model(path: str | Path) -> LearnedModel:
    """Read and check a model file (see the module doc); :class:`ModelFileError` (a
    ValueError) naming the file and the field that is wrong."""
    path = Path(path)
    return model_from_json(_read_json(path), path)


def _read_json(path: Path) -> Any:
    """The parsed text of ``path``, refused before parsing when it is no file or too big."""
    if any(len(os.fsencode(part)) > _NAME_MAX for part in path.parts):
        raise ModelFileError(path, "", f"a name in the path is longer than the {_NAME_MAX} "
                                       "bytes a file or folder name can have")
    try:
        info = path.stat()
    except FileNotFoundError:
        raise ModelFileError(path, "", "no such file") from None
    except NotADirectoryError:
        raise ModelFileError(path, "", "a folder on its path is a file") from None
    except OSError as e:
        raise ModelFileError(path, "", f"cannot be read ({e.strerror or e})") from None
    if stat.S_ISDIR(info.st_mode):
        raise ModelFileError(path, "", "is a folder, not a model file")
    if not stat.S_ISREG(info.st_mode):
        raise ModelFileError(path, "", "is not a regular file")
    if info.st_size > MAX_MODEL_BYTES:
        raise ModelFileError(path, "", f"is {info.st_size:,} bytes, more than the "
                                       f"{MAX_MODEL_BYTES:,} a model file may have")
    if info.st_size == 0:
        raise ModelFileError(path, "", "is empty")
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as e:
        raise ModelFileError(path, "", f"cannot be read ({e.strerror or e})") from None
    except UnicodeDecodeError:
        raise ModelFileError(path, "", "is not UTF-8 text (a model file is JSON)") from None
    try:
        d = json.loads(text)
    except RecursionError:
        raise ModelFileError(path, "", f"is nested more than {MAX_NESTING} levels deep")\
            from None
    except ValueError as e:  # JSONDecodeError, or an integer of too many digits
        raise ModelFileError(path, "", f"is not JSON ({e})") from None
    if _nesting(d) > MAX_NESTING:
        raise ModelFileError(path, "", f"is nested more than {MAX_NESTING} levels deep")
    return d


def _nesting(value: Any) -> int:
    """How deep lists and objects nest in ``value`` (0: a scalar), without recursion."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        v, depth = todo.pop()
        children = v.values() if isinstance(v, dict) else v if isinstance(v, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        if depth <= MAX_NESTING:
            todo.extend((c, depth + 1) for c in children)
    return deepest


def _brief(value: Any) -> str:
    """``value`` for a message: at most 40 characters of its JSON."""
    text = json.dumps(value) if not isinstance(value, float) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _number(path: Path, field: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ModelFileError(path, field, f"must be a number, got {_brief(value)}")
    try:
        x = float(value)
    except OverflowError:
        raise ModelFileError(path, field, f"{len(str(abs(value)))}-digit number, too large "
                                          "for a number of double precision") from None
    if not math.isfinite(x):
        raise ModelFileError(path, field, f"must be a finite number, got {x}")
    return x


def _numbers(path: Path, field: str, value: Any, n: int, what: str) -> tuple[float, ...]:
    """A list of ``n`` finite numbers, ``what`` saying what each is for."""
    if not isinstance(value, list) or len(value) != n:
        got = f"{len(value)}" if isinstance(value, list) else _brief(value)
        raise ModelFileError(path, field, f"must list {n} numbers, {what}; got {got}")
    return tuple(_number(path, f"{field}[{i}]", v) for i, v in enumerate(value))


def _check_features(path: Path, names: Any, core: list[str]) -> tuple[str, ...]:
    """The ``features`` field: the core's feature names, in its order."""
    if not isinstance(names, list):
        raise ModelFileError(path, "features", f"must list the feature names, got "
                                               f"{_brief(names)}")
    bad = next((i for i, x in enumerate(names) if not isinstance(x, str)), None)
    if bad is not None:
        raise ModelFileError(path, f"features[{bad}]", f"must be a feature name, got "
                                                        f"{_brief(names[bad])}")
    if names == core:
        return tuple(names)
    hint = " (the core computes these features in this order: retrain with hansa-lab learn)"
    known, listed = set(core), set(names)
    extra = next((x for x in names if x not in known), None)
    if extra is not None:
        raise ModelFileError(path, f"features[{names.index(extra)}]",
                             f"{extra!r} is not a feature the core computes{hint}")
    repeated = next((x for i, x in enumerate(names) if x in names[:i]), None)
    if repeated is not None:
        raise ModelFileError(path, "features", f"{repeated!r} is listed twice{hint}")
    missing = [x for x in core if x not in listed]
    if missing:
        raise ModelFileError(path, "features", f"lacks {missing[0]!r} ({len(missing)} of "
                                               f"the core's {len(core)} features missing)"
                                               f"{hint}")
    i = next(i for i, (a, b) in enumerate(zip(names, core, strict=True)) if a != b)
    raise ModelFileError(path, f"features[{i}]", f"is {names[i]!r}, the core's feature {i} "
                                                 f"is {core[i]!r}{hint}")


def _hidden_layer(path: Path, h: Any, n: int) -> HiddenLayer:
    """The ``hidden`` field of a model file of :data:`HIDDEN_MODEL_FORMAT`."""
    if not isinstance(h, dict) or any(k not in h for k in ("weights", "bias", "output")):
        raise ModelFileError(path, "hidden", f"a {HIDDEN_MODEL_FORMAT} file needs a 'hidden' "
                                             "field with 'weights', 'bias' and 'output'")
    if not isinstance(h["bias"], list) or not 1 <= len(h["bias"]) <= MAX_HIDDEN_UNITS:
        got = len(h["bias"]) if isinstance(h["bias"], list) else _brief(h["bias"])
        raise ModelFileError(path, "hidden.bias", f"must list one number per unit, 1 to "
                                                  f"{MAX_HIDDEN_UNITS} units; got {got}")
    units = len(h["bias"])
    bias = _numbers(path, "hidden.bias", h["bias"], units, "one per unit")
    output = _numbers(path, "hidden.output", h["output"], units, "one per unit (as many "
                      "as hidden.bias)")
    rows = h["weights"]
    if not isinstance(rows, list) or len(rows) != units:
        got = len(rows) if isinstance(rows, list) else _brief(rows)
        raise ModelFileError(path, "hidden.weights", f"must hold {units} rows, one per unit "
                                                     f"(as many as hidden.bias); got {got}")
    weights = tuple(_numbers(path, f"hidden.weights[{j}]", r, n, "one per feature")
                    for j, r in enumerate(rows))
    return HiddenLayer(weights, bias, output)


def _check_training(path: Path, training: Any) -> None:
    """What the file records of its training data, where it records it, is consistent."""
    from hansa_lab.engine.board import KNOWN_BOARDS
    from hansa_lab.engine.state import EDITIONS
    from hansa_lab.strategies.lineup import split_specs

    if not isinstance(training, dict):
        raise ModelFileError(path, "training", f"must be an object, got {_brief(training)}")
    data = training.get("data")
    if data is None:
        return
    if not isinstance(data, dict):
        raise ModelFileError(path, "training.data", f"must be an object, got {_brief(data)}")
    n = data.get("n_players")
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= 5):
        raise ModelFileError(path, "training.data.n_players",
                             f"must be a player count from 2 to 5, got {_brief(n)}")
    board = data.get("board")
    if board is not None and board not in KNOWN_BOARDS:
        raise ModelFileError(path, "training.data.board", f"unknown board {_brief(board)} "
                                                          f"(known: {', '.join(KNOWN_BOARDS)})")
    edition = data.get("edition")
    if edition is not None and edition not in EDITIONS:
        raise ModelFileError(path, "training.data.edition",
                             f"must be one of {', '.join(EDITIONS)}, got {_brief(edition)}")
    lineups = data.get("lineups")
    if lineups is None:
        return
    if not isinstance(lineups, list):
        raise ModelFileError(path, "training.data.lineups",
                             f"must list line-ups, got {_brief(lineups)}")
    for k, lineup in enumerate(lineups):
        field = f"training.data.lineups[{k}]"
        if not isinstance(lineup, str):
            raise ModelFileError(path, field, f"must be a line-up (text), got {_brief(lineup)}")
        seats = len(split_specs(lineup))
        if n is not None and seats != n:
            raise ModelFileError(path, field, f"has {seats} seats, but training.data.n_players "
                                              f"is {n}")


def model_from_json(d: Any, path: str | Path) -> LearnedModel:
    """The model of a model file's parsed JSON ``d``, checked (see the module doc);
    ``path`` names the file in messages."""
    from hansa_lab.compiled.bridge import core_feature_names, core_model_forward

    path = Path(path)
    if not isinstance(d, dict):
        raise ModelFileError(path, "", f"must hold a JSON object, got {_brief(d)[:20]}")
    fmt = d.get("format")
    if fmt not in MODEL_KINDS:
        raise ModelFileError(path, "format", f"must be {MODEL_FORMAT!r} or "
                                             f"{HIDDEN_MODEL_FORMAT!r}, got {_brief(fmt)}")
    missing = next((k for k in ("kind", "features", "mean", "scale", "weights", "bias")
                    if k not in d), None)
    if missing is not None:
        raise ModelFileError(path, missing, "missing")
    kind = d["kind"]
    if kind not in MODEL_KINDS[fmt]:
        raise ModelFileError(path, "kind", f"a {fmt} file holds a model of kind "
                                           f"{' or '.join(MODEL_KINDS[fmt])}, got "
                                           f"{_brief(kind)}")
    name = d.get("name", path.stem)
    if not isinstance(name, str) or not name:
        raise ModelFileError(path, "name", f"must be a name (text), got {_brief(name)}")
    features = _check_features(path, d["features"], core_feature_names())
    n = len(features)
    mean = _numbers(path, "mean", d["mean"], n, "one per feature")
    scale = _numbers(path, "scale", d["scale"], n, "one per feature")
    bad = next((i for i, s in enumerate(scale) if s <= 0.0), None)
    if bad is not None:
        raise ModelFileError(path, f"scale[{bad}]", f"must be positive (features are "
                                                    f"divided by it), got {scale[bad]}")
    weights = _numbers(path, "weights", d["weights"], n, "one per feature")
    bias = _number(path, "bias", d["bias"])
    hidden = _hidden_layer(path, d.get("hidden"), n) if fmt == HIDDEN_MODEL_FORMAT else None
    if fmt == MODEL_FORMAT and "hidden" in d:
        raise ModelFileError(path, "hidden", f"a {MODEL_FORMAT} file is linear; a model with "
                                             f"a hidden layer is of {HIDDEN_MODEL_FORMAT}")
    if "training" in d:
        _check_training(path, d["training"])
    meta = {k: v for k, v in d.items() if k not in _MODEL_FIELDS}
    model = LearnedModel(name, kind, features, mean, scale, weights, bias, meta, hidden)
    try:  # the core's own check: whatever it would refuse in a game is refused here
        core_model_forward(model.core_args(), model.core_hidden(), [])
    except ValueError as e:
        raise ModelFileError(path, "", f"refused by the core: {e}") from None
    return model
