"""Bad model files and bad ``learn`` / ``learn-measure`` inputs (issue 40): every model
file is read by the one loader (:func:`hansa_lab.strategies.model_file.load_model`), which
refuses with a :class:`~hansa_lab.errors.ModelFileError` naming the file and the field
whatever the core would trip over later; every command that takes a model refuses a bad
one before the first game (exit 2, one line, no traceback); ``learn`` checks its paths
before it plays or fits, refuses a data chunk it cannot use naming the chunk and the
column, never writes a model no player could load, and ends on SIGTERM like Ctrl-C.

``HANSA_LAB_CORPUS_REPORT=<file>`` collects one JSON line per command-line case.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from run_helpers import forbid_games, run_cli

from hansa_lab.compiled.bridge import core_module
from hansa_lab.errors import ModelFileError, RunTerminated
from hansa_lab.play import engines as play_engines
from hansa_lab.strategies import make_strategy
from hansa_lab.strategies.learned import MODEL_FOLDER
from hansa_lab.strategies.model_file import (
    HIDDEN_MODEL_FORMAT,
    MAX_HIDDEN_UNITS,
    MAX_MODEL_BYTES,
    LearnedModel,
    load_model,
)
from hansa_lab.studies import learn
from hansa_lab.studies.learn import FitReport, LearnSettings, feature_names, write_model
from hansa_lab.viz.timeline import Timeline

NAMES = feature_names()
N = len(NAMES)
LONG = "m" * 300  # longer than any file system's name limit


def _linear() -> dict[str, Any]:
    """A good linear model file's JSON (the shipped 3-player model)."""
    return json.loads((MODEL_FOLDER / "learned_base3p.json").read_text())


def _hidden() -> dict[str, Any]:
    """A good model file with a hidden layer of 2 units."""
    d = _linear()
    d.update(format=HIDDEN_MODEL_FORMAT, kind="mlp_win",
             hidden={"weights": [[0.01] * N, [-0.02] * N], "bias": [0.1, 0.0],
                     "output": [0.5, -0.25]})
    return d


def _set(key: str, value: Any, base: Callable[[], dict[str, Any]] = _linear
         ) -> Callable[[], dict[str, Any]]:
    """A model whose field ``key`` (dotted, with list indices) is ``value``."""
    def make() -> dict[str, Any]:
        d = base()
        *path, last = key.split(".")
        node: Any = d
        for part in path:
            node = node[int(part)] if isinstance(node, list) else node[part]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
        return d
    return make


def _edit(change: Callable[[dict[str, Any]], None],
          base: Callable[[], dict[str, Any]] = _linear) -> Callable[[], dict[str, Any]]:
    def make() -> dict[str, Any]:
        d = base()
        change(d)
        return d
    return make


def _swap_features(d: dict[str, Any]) -> None:
    d["features"][0], d["features"][1] = d["features"][1], d["features"][0]


def _drop_last_feature(d: dict[str, Any]) -> None:
    for k in ("features", "mean", "scale", "weights"):
        d[k] = d[k][:-1]


def _extra_feature(d: dict[str, Any]) -> None:
    d["features"].append("own_luck")
    for k in ("mean", "weights"):
        d[k].append(0.0)
    d["scale"].append(1.0)


def _nest(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


#: (case, the model's JSON (a function) or the file's raw bytes, the field named)
BAD_JSON = [
    ("nan weight", _set("weights.3", float("nan")), "weights[3]"),
    ("inf mean", _set("mean.0", float("inf")), "mean[0]"),
    ("-inf bias", _set("bias", float("-inf")), "bias"),
    ("nan bias", _set("bias", float("nan")), "bias"),
    ("zero scale", _set("scale.2", 0.0), "scale[2]"),
    ("negative scale", _set("scale.7", -1.5), "scale[7]"),
    ("inf scale", _set("scale.1", float("inf")), "scale[1]"),
    ("null entry", _set("weights.0", None), "weights[0]"),
    ("string entry", _set("mean.1", "1.0"), "mean[1]"),
    ("bool entry", _set("weights.4", True), "weights[4]"),
    ("list entry", _set("weights.5", [1.0]), "weights[5]"),
    ("400-digit number", _set("weights.6", 10 ** 400), "weights[6]"),
    ("400-digit bias", _set("bias", -(10 ** 400)), "bias"),
    ("null bias", _set("bias", None), "bias"),
    ("weights too short", _set("weights", [0.0] * (N - 1)), "weights"),
    ("weights too long", _set("weights", [0.0] * (N + 1)), "weights"),
    ("weights not a list", _set("weights", 1.0), "weights"),
    ("scale missing", _edit(lambda d: d.pop("scale")), "scale"),
    ("bias missing", _edit(lambda d: d.pop("bias")), "bias"),
    ("feature missing", _edit(_drop_last_feature), "features"),
    ("extra feature", _edit(_extra_feature), f"features[{N}]"),
    ("features reordered", _edit(_swap_features), "features[0]"),
    ("feature repeated", _set("features.1", NAMES[0]), "features"),
    ("feature renamed", _set("features.5", "own_something"), "features[5]"),
    ("feature not a string", _set("features.4", 4), "features[4]"),
    ("features not a list", _set("features", "all"), "features"),
    ("wrong format string", _set("format", "hansa_lab.learned_model/9"), "format"),
    ("format missing", _edit(lambda d: d.pop("format")), "format"),
    ("unknown kind", _set("kind", "magic"), "kind"),
    ("hidden kind in a linear file", _set("kind", "mlp_win"), "kind"),
    ("linear kind in a hidden file", _set("kind", "logistic_win", _hidden), "kind"),
    ("name not text", _set("name", 5), "name"),
    ("hidden layer in a linear file", _edit(lambda d: d.update(hidden=_hidden()["hidden"])),
     "hidden"),
    ("hidden layer missing", _edit(lambda d: d.pop("hidden"), _hidden), "hidden"),
    ("hidden layer not an object", _set("hidden", [1.0], _hidden), "hidden"),
    ("truncated hidden row", _set("hidden.weights.1", [0.0] * 10, _hidden),
     "hidden.weights[1]"),
    ("hidden rows missing", _set("hidden.weights", [[0.0] * N], _hidden), "hidden.weights"),
    ("hidden output short", _set("hidden.output", [1.0], _hidden), "hidden.output"),
    ("hidden without units", _edit(lambda d: d["hidden"].update(
        weights=[], bias=[], output=[]), _hidden), "hidden.bias"),
    ("too many hidden units", _edit(lambda d: d["hidden"].update(
        weights=[[0.0] * N] * (MAX_HIDDEN_UNITS + 1), bias=[0.0] * (MAX_HIDDEN_UNITS + 1),
        output=[0.0] * (MAX_HIDDEN_UNITS + 1)), _hidden), "hidden.bias"),
    ("nan in a hidden row", _set("hidden.weights.0.3", float("nan"), _hidden),
     "hidden.weights[0][3]"),
    ("null hidden bias", _set("hidden.bias.1", None, _hidden), "hidden.bias[1]"),
    ("inf hidden output", _set("hidden.output.0", float("inf"), _hidden),
     "hidden.output[0]"),
    ("trained for 7 players", _set("training.data.n_players", 7), "training.data.n_players"),
    ("trained on an unknown board", _set("training.data.board", "moon"),
     "training.data.board"),
    ("trained on an unknown edition", _set("training.data.edition", "x"),
     "training.data.edition"),
    ("line-up of other seats", _set("training.data.lineups.0", "greedy,greedy"),
     "training.data.lineups[0]"),
    ("training not an object", _set("training", "yes"), "training"),
    ("training data not an object", _set("training.data", [1]), "training.data"),
    ("a list, not an object", lambda: [_linear()], ""),
    ("deep nesting", b"[" * 100_000 + b"]" * 100_000, ""),
    ("nested 40 levels in the record", _set("heldout", _nest(40)), ""),
    ("5000-digit number", b'{"format": "hansa_lab.learned_model/1", "bias": '
     + b"9" * 5000 + b"}", ""),
    ("not JSON", b"{weights: [1, 2", ""),
    ("empty file", b"", ""),
    ("not UTF-8", b"\xff\xfe{}", ""),
]


def _write(path: Path, content: Callable[[], Any] | bytes) -> Path:
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(json.dumps(content()))
    return path


def _refused(path: Path, field: str) -> ModelFileError:
    with pytest.raises(ModelFileError) as info:
        load_model(path)
    e = info.value
    text = str(e)
    assert e.field == field, text
    assert str(path) in text or len(str(path)) > 120, text
    assert f": {field}: " in text if field else text.startswith("model file "), text
    assert "\n" not in text
    return e


def test_the_good_models_load():
    """The corpus's starting points are good: the shipped linear model and a hidden one."""
    assert load_model(MODEL_FOLDER / "learned_base3p.json").kind == "logistic_win"


def test_a_good_hidden_model_loads(tmp_path):
    m = load_model(_write(tmp_path / "h.json", _hidden))
    assert m.hidden is not None and len(m.hidden.bias) == 2


@pytest.mark.parametrize(("content", "field"), [c[1:] for c in BAD_JSON],
                         ids=[c[0] for c in BAD_JSON])
def test_a_bad_model_file_is_refused_naming_the_file_and_field(content, field, tmp_path):
    _refused(_write(tmp_path / "bad.json", content), field)


@pytest.mark.parametrize(("make", "words"), [
    (lambda t: t, "is a folder"),
    (lambda t: t / "missing.json", "no such file"),
    (lambda t: t / f"{LONG}.json", "longer than the 255 bytes"),
    (lambda t: _write(t / "f.json", _linear) / "x.json", "a folder on its path is a file"),
], ids=["a folder", "missing", "over-long name", "under a file"])
def test_a_path_that_is_no_model_file_is_refused(make, words, tmp_path):
    e = _refused(make(tmp_path), "")
    assert words in str(e)


def test_a_file_too_big_is_refused_before_it_is_read(tmp_path, monkeypatch):
    path = tmp_path / "big.json"
    with path.open("wb") as f:
        f.truncate(MAX_MODEL_BYTES + 1)  # sparse: nothing to read were it read
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail("the file was read"))
    assert "more than the" in str(_refused(path, ""))


def test_whatever_the_loader_passes_the_core_takes(tmp_path):
    """The loader's last check is the core's own: a model file it accepts always builds
    the core's player (here the shipped models and the hidden one)."""
    for path in [*MODEL_FOLDER.glob("learned_*.json"), _write(tmp_path / "h.json", _hidden)]:
        m = load_model(path)
        core_module().learned_policy(*m.core_args(), hidden=m.core_hidden())


@pytest.mark.parametrize("player", ["learned", "strong", "learned_rollout", "strong_v2"])
def test_every_player_on_a_model_refuses_a_bad_one_when_built(player, tmp_path):
    path = _write(tmp_path / "nan.json", _set("weights.3", float("nan")))
    with pytest.raises(ModelFileError, match=r"nan\.json: weights\[3\]"):
        make_strategy(f"{player}:model={path}")


def test_write_model_never_writes_a_model_no_player_could_load(tmp_path):
    m = load_model(MODEL_FOLDER / "learned_base3p.json")
    weights = (float("nan"), *m.weights[1:])
    bad = LearnedModel(m.name, m.kind, m.features, m.mean, m.scale, weights, m.bias, {})
    report = FitReport(bad, m.kind, 1.0, {}, {})
    settings = LearnSettings(lineups=(("random",) * 3,), n_players=3)
    with pytest.raises(ModelFileError, match=r"weights\[0\]"):
        write_model(report, settings, tmp_path / "m.json")
    assert not list(tmp_path.iterdir())


# ---------------------------------------------------------------------- command lines


@pytest.fixture
def no_games(monkeypatch, tmp_path):
    """No game may be played, in any engine, nor any learning chunk; everything happens
    in tmp_path, which holds a file ``f``, a model ``nan.json`` with a NaN weight and a
    model ``hidden.json`` whose hidden layer lost a row."""
    forbid_games(monkeypatch)

    def fail(*a: Any, **k: Any) -> Any:
        pytest.fail("a game was played")

    monkeypatch.setattr(play_engines, "_played", fail)  # every play_game and play_on
    monkeypatch.setattr(Timeline, "from_seed", classmethod(fail))
    monkeypatch.setattr(learn, "_play_chunk", fail)
    monkeypatch.chdir(tmp_path)
    Path("f").write_text("a file")
    _write(tmp_path / "nan.json", _set("weights.3", float("nan")))
    _write(tmp_path / "hidden.json", _set("hidden.weights", [[0.0] * N], _hidden))


def _fails(argv: list[str], words: list[str], capsys) -> str:
    """``argv`` exits 2 with one line naming every one of ``words`` (after argparse's
    usage, for its own errors), no traceback."""
    code, err = run_cli("models", argv, capsys)
    assert code == 2, (argv, err)
    said = [x for x in err.splitlines() if x.startswith("hansa-lab")]
    assert "Traceback" not in err and len(said) == 1, (argv, err)
    for w in words:
        assert w in err, (argv, w, err)
    return err


BAD_MODEL = ["nan.json", "weights[3]"]
MODEL_COMMANDS = [  # (arguments, words of the message)
    (["play", "--players", "3", "--strategies", "learned:model=nan.json,random,random"],
     ["--strategies", *BAD_MODEL]),
    (["play", "--players", "3", "--strategies", "strong:model=hidden.json,random,random"],
     ["--strategies", "hidden.json", "hidden.weights"]),
    (["play", "--players", "3", "--engine", "python", "--strategies",
      "learned:model=f/x.json,random,random"], ["--strategies", "f/x.json"]),
    (["play", "--players", "3", "--strategies", f"learned:model={LONG}.json,random,random"],
     ["--strategies", "255 bytes"]),
    (["simulate", "--players", "3", "--games", "6", "--no-progress", "--out", "sim",
      "--strategies", "learned:model=nan.json,random,random"], ["--strategies", *BAD_MODEL]),
    (["simulate", "--players", "3", "--games", "6", "--no-progress", "--out", "sim",
      "--strategies", "random,strong:model=./,random"], ["--strategies", "is a folder"]),
    (["replay", "--players", "3", "--html", "r.html", "--strategies",
      "strong:model=nan.json,random,random"], ["--strategies", *BAD_MODEL]),
    (["learn-measure", "--players", "3", "--challenger", "learned:model=nan.json"],
     ["--challenger", *BAD_MODEL]),
    (["learn-measure", "--players", "3", "--against", "greedy,strong:model=nan.json"],
     ["--against", "entry 2", *BAD_MODEL]),
    (["learn-measure", "--players", "3", "--reference", "learned:model=hidden.json"],
     ["--reference", "hidden.json"]),
    (["learn", "--players", "3", "--lineup", "learned:model=nan.json", "--data", "d"],
     ["--lineup", *BAD_MODEL]),
]


@pytest.mark.parametrize(("argv", "words"), MODEL_COMMANDS,
                         ids=[" ".join(c[0])[:70] for c in MODEL_COMMANDS])
def test_a_command_refuses_a_bad_model_before_the_first_game(argv, words, no_games, capsys):
    _fails(argv, words, capsys)
    assert not Path("sim").exists() and not Path("r.html").exists()


def test_run_refuses_a_bad_model_of_an_experiment_file(no_games, capsys):
    Path("exp.toml").write_text('name = "m"\nplayers = 3\ngames = 6\n[arms]\n'
                                'a = "learned:model=nan.json,random,random"\n')
    _fails(["run", "exp.toml", "--out", "runs", "--no-progress"],
           ["exp.toml", "arms.a", *BAD_MODEL], capsys)
    assert not Path("runs").exists()


MEASURE = [  # learn-measure: every strategy checked before the first game
    (["--against", ""], ["--against", "at least one strategy"]),
    (["--against", " , "], ["--against", "at least one strategy"]),
    (["--against", "greedy,nope"], ["--against", "entry 2", "'nope'"]),
    (["--against", "greedy:depth=9"], ["--against", "depth"]),
    (["--challenger", "nope"], ["--challenger", "'nope'"]),
    (["--challenger", ""], ["--challenger", "one strategy, got 0"]),
    (["--challenger", "greedy,random"], ["--challenger", "one strategy, got 2"]),
    (["--challenger", "learned:model=nope"], ["--challenger", "no learned model 'nope'"]),
    (["--reference", "nope"], ["--reference", "'nope'"]),
    (["--reference", "greedy,random"], ["--reference", "one strategy, got 2"]),
    (["--deals", "0"], ["--deals", ">= 1"]),
    (["--players", "7"], ["--players", "at most 5"]),
    (["--deals", str(10 ** 12)], ["--deals", "4,000,000,000,000 games", "years", "--yes"]),
    (["--deals", str(10 ** 8), "--against", "greedy,random"],
     ["--deals", "2 opponent line-up(s)", "days"]),
]


@pytest.mark.parametrize(("extra", "words"), MEASURE, ids=[" ".join(c[0]) for c in MEASURE])
def test_learn_measure_arguments(extra, words, no_games, capsys):
    _fails(["learn-measure", "--players", "3", *extra], words, capsys)


# ------------------------------------------------------------------------------ learn

LEARN = ["learn", "--players", "3", "--lineup", "random", "--games", "6", "--chunk", "3",
         "--rate", "0.05", "--seed", "3", "--no-progress", "--json"]


@pytest.fixture(scope="module")
def learned_data(tmp_path_factory):
    """A finished small data set of :data:`LEARN` (two chunks of three random games)."""
    from hansa_lab.tools.cli import main

    data = tmp_path_factory.mktemp("learn") / "data"
    assert main([*LEARN, "--data", str(data)]) == 0
    (data / "learned_base3p.json").unlink()
    return data


@pytest.fixture
def data(learned_data, tmp_path, no_games):
    """A copy of the finished data set in tmp_path (the current folder), ``data``."""
    return Path(shutil.copytree(learned_data, tmp_path / "data"))


LEARN_ARGS = [  # refused before a game is played
    (["--jobs", "0"], ["--jobs", "non-zero", "got 0"]),
    (["--jobs", "x"], ["--jobs", "'x'"]),
    (["--data", "f"], ["--data", "f is a file, not a folder"]),
    (["--data", "f/sub"], ["--data", "f is a file"]),
    (["--data", "/proc/hansa-lab-learn"], ["--data", "not writable"]),
    (["--data", LONG], ["--data", "300 bytes long"]),
    (["--data", "d", "--out", "."], ["--out", "is a folder; give the file to write"]),
    (["--data", "d", "--out", "new/"], ["--out", "is a folder"]),
    (["--data", "d", "--out", "f/m.json"], ["--out", "f is a file"]),
    (["--data", "d", "--out", "/proc/hansa-lab/m.json"], ["--out", "not writable"]),
    (["--data", "d", "--out", f"{LONG}.json"], ["--out", "bytes long"]),
    (["--data", "d", "--name", "a/b"], ["--name", "'a/b'"]),
    (["--data", "d", "--rate", "nan"], ["--rate", "nan"]),
    (["--data", "d", "--rate", "0"], ["--rate", "(0, 1]"]),
    (["--data", "d", "--rate", "1.5"], ["--rate", "(0, 1]"]),
    (["--data", "d", "--lineup", "nope"], ["--lineup", "'nope'"]),
    (["--data", "d", "--lineup", ""], ["--lineup", "at least one strategy"]),
    (["--data", "d", "--lineup", "greedy,greedy"], ["--lineup", "2 seats for 3 players"]),
    (["--data", "d", "--lineup", "greedy:depth=9"], ["--lineup", "depth"]),
    (["--data", "d", "--games", "2"], ["--games", "at least 5 games"]),
    (["--data", "d", "--games", "0"], ["--games", ">= 1"]),
    (["--data", "d", "--chunk", "0"], ["--chunk", ">= 1"]),
    (["--data", "d", "--games", str(10 ** 12)], ["--games", "years", "--yes"]),
    (["--data", "d", "--games", str(10 ** 9), "--lineup", "random", "--lineup", "greedy"],
     ["--games", "3,000,000,000 games"]),
]


@pytest.mark.parametrize(("extra", "words"), LEARN_ARGS,
                         ids=[" ".join(c[0])[:60] for c in LEARN_ARGS])
def test_learn_arguments_are_checked_before_anything_runs(extra, words, no_games, capsys):
    _fails([*LEARN, *extra], words, capsys)
    assert not Path("d").exists() and not list(Path().rglob("settings.json"))


def test_learn_checks_out_before_it_fits(data, monkeypatch, capsys):
    """With every chunk in place, a folder as ``--out`` is refused without fitting."""
    monkeypatch.setattr(learn, "fit_model", lambda *a, **k: pytest.fail("fitted"))
    Path("m").mkdir()
    _fails([*LEARN, "--data", "data", "--out", "m"], ["--out", "m is a folder"], capsys)


def test_learn_with_more_jobs_than_chunks_fits_the_data(data, capsys):
    """``--jobs 2**70`` starts no more workers than chunks to play (here none)."""
    code, err = run_cli("models", [*LEARN, "--data", "data", "--jobs", str(2 ** 70)], capsys)
    assert code == 0, err
    assert Path("data/learned_base3p.json").is_file()


def _savez(path: Path, **arrays: Any) -> None:
    with path.open("wb") as f:
        np.savez(f, **arrays)


def _chunk_with(column: str, change: Callable[[np.ndarray], np.ndarray]
                ) -> Callable[[Path], None]:
    def spoil(path: Path) -> None:
        with np.load(path) as z:
            arrays = {k: z[k] for k in z.files}
        arrays[column] = change(arrays[column])
        _savez(path, **arrays)
    return spoil


def _nan_feature(x: np.ndarray) -> np.ndarray:
    x = x.copy()
    x[2, 5] = np.nan
    return x


def _inf_feature(x: np.ndarray) -> np.ndarray:
    x = x.copy()
    x[:, 7] = np.inf
    return x


def _folder(path: Path) -> None:
    path.unlink()
    path.mkdir()


CHUNKS = [  # (case, what is done to chunk_00_000003.npz, words of the message)
    ("nan feature", _chunk_with("x", _nan_feature), [repr(NAMES[5]), "feature 5"]),
    ("inf feature", _chunk_with("x", _inf_feature), [repr(NAMES[7]), "not finite"]),
    ("nan margin", _chunk_with("margin", lambda m: m * np.nan), ["'margin'", "not finite"]),
    ("narrow x", _chunk_with("x", lambda x: x[:, :-1]), [f"{N - 1} feature columns"]),
    ("short column", _chunk_with("win", lambda w: w[:-1]), ["'win'"]),
    ("text column", _chunk_with("seat", lambda s: s.astype(str)), ["'seat'"]),
    ("truncated", lambda p: p.write_bytes(p.read_bytes()[:200]), ["cannot be read"]),
    ("empty", lambda p: p.write_bytes(b""), ["cannot be read"]),
    ("other keys", lambda p: _savez(p, a=np.zeros(3)), ["no 'x' array"]),
    ("one array", lambda p: np.save(p.open("wb"), np.zeros(3)), ["cannot be read"]),
    ("a folder", _folder, ["cannot be read"]),
]


@pytest.mark.parametrize(("spoil", "words"), [c[1:] for c in CHUNKS],
                         ids=[c[0] for c in CHUNKS])
def test_learn_refuses_a_chunk_it_cannot_use(spoil, words, data, capsys):
    chunk = data / "chunk_00_000003.npz"
    spoil(chunk)
    err = _fails([*LEARN, "--data", "data"], ["--data", f"data/{chunk.name}", *words], capsys)
    assert "run the same command again" in err
    assert not Path("data/learned_base3p.json").exists()  # no model written


@pytest.mark.parametrize(("content", "words"), [
    ("[1, 2]", ["settings.json holds list", "not the settings"]),
    ("{", ["settings.json cannot be read"]),
    ("", ["settings.json cannot be read"]),
], ids=["a list", "not JSON", "empty"])
def test_learn_refuses_settings_that_are_not_a_data_sets(content, words, data, capsys):
    (data / "settings.json").write_text(content)
    _fails([*LEARN, "--data", "data"], ["--data", *words], capsys)


def test_learn_refuses_other_settings_before_a_game(data, capsys):
    _fails([*LEARN, "--data", "data", "--seed", "4"], ["--data", "seed", "3 there"], capsys)


# -------------------------------------------------------------------------- stopping


def test_learn_stopped_by_sigterm_says_the_chunks_are_saved(tmp_path):
    """Stopped after a chunk: exit 128 + the signal, one line saying the finished chunks
    are saved and the same command resumes, no traceback; the chunks are there."""
    argv = [sys.executable, "-m", "hansa_lab.tools.cli", "learn", "--players", "3",
            "--lineup", "random", "--games", "20000", "--chunk", "1", "--rate", "0.01",
            "--data", str(tmp_path / "data")]
    log = tmp_path / "stderr.txt"
    with open(log, "w") as err:
        proc = subprocess.Popen(argv, stderr=err, stdout=subprocess.DEVNULL, cwd=tmp_path)
        try:
            deadline = time.monotonic() + 60  # never left running if no chunk is written
            while not list((tmp_path / "data").glob("chunk_*.npz")):
                assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
                time.sleep(0.05)
            proc.send_signal(signal.SIGTERM)
            code = proc.wait(timeout=30)
        finally:
            proc.kill()
            proc.wait()
    rest = log.read_text()
    assert code == 143, rest
    assert "Traceback" not in rest and "terminated (SIGTERM)" in rest, rest
    assert "finished chunks are saved" in rest and "same command again" in rest, rest
    assert list((tmp_path / "data").glob("chunk_*.npz"))


@pytest.mark.parametrize(("stop", "code", "words"), [
    (KeyboardInterrupt(), 130, "interrupted"),
    (RunTerminated(signal.SIGTERM), 143, "terminated (SIGTERM)"),
], ids=["Ctrl-C", "SIGTERM"])
def test_learn_measure_stopped_says_what_was_measured(stop, code, words, monkeypatch,
                                                      capsys):
    """learn-measure stopped in its second opponent line-up: the first one's line is
    printed, then one line saying how many were measured in full."""
    from hansa_lab.studies.learn import SeatMeasure

    calls = []

    def measure(challenger: str, opponent: str, **k: Any) -> SeatMeasure:
        calls.append(opponent)
        if len(calls) > 1:
            raise stop
        return SeatMeasure(challenger, opponent, 4, 1.0, 0.25, 0.05, 0.7, -3.0, 0.01)

    monkeypatch.setattr(learn, "measure_seat", measure)
    code_got, err = run_cli("models", ["learn-measure", "--players", "4", "--against",
                                       "greedy,random"], capsys)
    assert code_got == code and words in err and "1 of 2 opponent line-ups" in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize(("stop", "code", "words"), [
    (KeyboardInterrupt(), 130, "interrupted"),
    (RunTerminated(signal.SIGTERM), 143, "terminated (SIGTERM)"),
], ids=["Ctrl-C", "SIGTERM"])
def test_learn_stopped_in_process(stop, code, words, monkeypatch, no_games, capsys):
    def build(*a: Any, **k: Any) -> Any:
        raise stop

    monkeypatch.setattr(learn, "build_dataset", build)
    code_got, err = run_cli("models", [*LEARN, "--data", "d"], capsys)
    assert code_got == code and words in err, err
    assert "finished chunks are saved in d" in err and "Traceback" not in err
