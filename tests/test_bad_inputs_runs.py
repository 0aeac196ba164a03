"""Bad inputs to a run's identity and to its results folder (issue 40): a model file changed
between a kill and the resume, a folder left by a run killed while writing its first
manifest, a corrupt manifest or damaged table files given to ``replay``, and a big sweep
planned with ``run --plan``. Each case ends in a run equal to an uninterrupted one, or in
exit status 2 with one line naming what was wrong, never a traceback, and nothing already
computed lost.

``HANSA_LAB_CORPUS_REPORT=<file>`` collects one JSON line per command-line case.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from run_helpers import assert_same_tables, counting_chunks, run_cli

from hansa_lab.engine.state import GameConfig
from hansa_lab.sim import runner, store
from hansa_lab.sim.experiment import normalize_experiment
from hansa_lab.sim.results import open_results
from hansa_lab.sim.runner import simulate
from hansa_lab.sim.store import FAULT_ENV, TRANSITIONS, ResultStore, design_hash
from hansa_lab.stats.tables import lineup_period
from hansa_lab.strategies.learned import Learned, find_model, model_for

ROOT = Path(__file__).resolve().parent.parent
#: a tiny run: 3 players, 4 games in chunks of 2 (random players: about 0.1 s a game)
RANDOM = ["simulate", "--players", "3", "--games", "4", "--chunk-size", "2", "--strategies",
          "random", "--no-progress"]


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _tables_equal(out: Path, reference: Path) -> None:
    res, ref = open_results(out), open_results(reference)
    assert res.complete and not res.bad_chunks
    assert_same_tables(res, ref)


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    """The uninterrupted tiny run every interrupted one must equal."""
    out = tmp_path_factory.mktemp("reference") / "run"
    assert runner_cli([*RANDOM, "--out", str(out)]) == 0
    return out


def runner_cli(argv: list[str]) -> int:
    from hansa_lab.tools import cli

    return cli.main(argv)


# 1. a run's identity: the model files its learned players read ---------------------------

MODEL_RUN = ["simulate", "--players", "3", "--games", "3", "--chunk-size", "1", "--no-progress"]


@pytest.fixture
def model_dir(tmp_path, monkeypatch) -> Path:
    """tmp_path as the working folder, holding a copy of a shipped 3-player model
    (``m.json``) and a strategy file built on it (``lm.toml``)."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(find_model("learned_base3p"), "m.json")
    Path("lm.toml").write_text('name = "lm"\nbase = "learned"\n[params]\nmodel = "m.json"\n'
                               "model_weight = 1.5\n")
    return tmp_path


def _change_model(path: Path) -> None:
    """The same model with every weight negated (it plays other games)."""
    data = json.loads(path.read_text())
    data["weights"] = [-w for w in data["weights"]]
    path.write_text(json.dumps(data))


#: how an input of a stored run is changed before the resume
CHANGES = {
    "model bytes": lambda: _change_model(Path("m.json")),
    "model replaced by another model": lambda: shutil.copy(find_model("learned_base4p"),
                                                           "m.json"),
    "model reformatted only": lambda: Path("m.json").write_text(
        json.dumps(json.loads(Path("m.json").read_text()), indent=3)),
    "strategy file parameter": lambda: Path("lm.toml").write_text(
        Path("lm.toml").read_text().replace("model_weight = 1.5", "model_weight = 2.0")),
}
#: the line-ups read the model through a spec, a strategy file, or both
LINEUPS = {
    "learned:model=PATH": "learned:model=m.json,random,random",
    "strategy file on learned": "lm.toml,random,random",
}


def _interrupted_model_run(lineup: str) -> tuple[list[str], Path]:
    """A run killed after its first chunks (its last done-marker gone, as a kill before the
    marker leaves it)."""
    argv = [*MODEL_RUN, "--strategies", lineup, "--out", "run"]
    assert runner_cli(argv) == 0
    Path("run/_chunks/chunk-000002.json").unlink()
    assert not open_results("run").complete
    return argv, Path("run")


@pytest.mark.parametrize(("change", "lineup"), [
    (c, lu) for c in CHANGES for lu in LINEUPS
    if c != "strategy file parameter" or "lm.toml" in LINEUPS[lu]])
def test_a_resume_after_a_changed_input_is_refused_and_force_replays(
        change, lineup, model_dir, capsys):
    argv, out = _interrupted_model_run(LINEUPS[lineup])
    kept = sorted(p.name for p in (out / "_chunks").iterdir())
    CHANGES[change]()
    with counting_chunks() as played:
        code, err = run_cli("changed run input", argv, capsys)
    assert code == 2 and "Traceback" not in err and played == []
    what = "strategy_files" if change == "strategy file parameter" else "model_files"
    assert f"differs in: {what}" in err and "--force" in err and len(err.splitlines()) == 1
    assert sorted(p.name for p in (out / "_chunks").iterdir()) == kept  # nothing lost
    # --force replays every game with the new model: equal to a fresh run of it
    assert runner_cli([*argv, "--force"]) == 0
    assert runner_cli([*argv[:-1], "fresh", "--name", "run"]) == 0
    _tables_equal(out, Path("fresh"))
    recorded = open_results(out).manifest["configuration"]["model_files"]
    assert recorded["m.json"] == {"file": "m.json", "sha256": _sha(Path("m.json"))}


@pytest.mark.parametrize("lineup", list(LINEUPS))
def test_a_resume_with_the_same_model_plays_only_the_missing_chunk(lineup, model_dir):
    argv, out = _interrupted_model_run(LINEUPS[lineup])
    os.utime("m.json")  # touched, not changed: the same bytes are the same model
    with counting_chunks() as played:
        assert runner_cli(argv) == 0
    assert played == [2] and open_results(out).complete


def test_a_run_stored_before_model_files_were_recorded_still_resumes(model_dir):
    """An older manifest has no ``model_files``: it opens and resumes as recorded."""
    argv, out = _interrupted_model_run(LINEUPS["learned:model=PATH"])
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["configuration"]["model_files"]
    manifest["design_hash"] = design_hash(manifest["configuration"], manifest["design"])
    (out / "manifest.json").write_text(json.dumps(manifest))
    for marker in (out / "_chunks").glob("*.json"):
        data = json.loads(marker.read_text())
        data["design"] = manifest["design_hash"]
        marker.write_text(json.dumps(data))
    assert not open_results(out).complete
    with counting_chunks() as played:
        assert runner_cli(argv) == 0
    assert played == [2]
    res = open_results(out)
    assert res.complete and "model_files" not in res.manifest["configuration"]


def test_a_changed_shipped_model_refuses_the_resume(model_dir, capsys):
    """``auto`` (the default) reads the shipped model of the board: a run whose recorded
    hash of it is not the file's any more (as after an upgrade) is not resumed."""
    argv, out = _interrupted_model_run("learned,random,random")
    manifest = json.loads((out / "manifest.json").read_text())
    models = manifest["configuration"]["model_files"]
    auto = model_for(GameConfig(3))
    assert models == {auto: {"file": f"hansa_lab/strategies/data/{auto}.json",
                             "sha256": _sha(find_model(auto))}}
    models[auto]["sha256"] = "0" * 64  # the file the run read had other bytes
    manifest["design_hash"] = design_hash(manifest["configuration"], manifest["design"])
    (out / "manifest.json").write_text(json.dumps(manifest))
    code, err = run_cli("changed shipped model", argv, capsys)
    assert code == 2 and "differs in: model_files" in err and "Traceback" not in err


def test_a_resume_after_a_default_changed_is_refused(model_dir, capsys, monkeypatch):
    """A spec keeps its text when a default changes (``learned`` before and after its
    ``temperature`` default moved): the resume compares every parameter the stored run's
    players played with, refuses with the parameter named, loses no chunk, and ``--force``
    replays."""
    argv, out = _interrupted_model_run("learned,random,random")
    kept = sorted(p.name for p in (out / "_chunks").iterdir())
    monkeypatch.setitem(Learned.defaults, "temperature", 0.5)
    with counting_chunks() as played:
        code, err = run_cli("changed default", argv, capsys)
    assert code == 2 and "Traceback" not in err and played == [] and len(err.splitlines()) == 1
    assert "learned: temperature 0.05 then, 0.5 now" in err and "--force" in err
    assert sorted(p.name for p in (out / "_chunks").iterdir()) == kept
    assert runner_cli([*argv, "--force"]) == 0
    assert open_results(out).manifest["strategies"]["learned"]["params"]["temperature"] == 0.5


def test_a_parameter_recorded_on_one_side_only_refuses_the_resume(model_dir, capsys):
    """A parameter added since the run was stored (not in its record) differs: its old
    players had no such setting; a manifest without the record resumes as it was."""
    argv, out = _interrupted_model_run("learned,random,random")
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["strategies"]["learned"]["params"]["temperature"]
    (out / "manifest.json").write_text(json.dumps(manifest))
    code, err = run_cli("parameter added since", argv, capsys)
    assert code == 2 and "learned: temperature not a parameter then, 0.05 now" in err
    del manifest["strategies"]
    (out / "manifest.json").write_text(json.dumps(manifest))
    with counting_chunks() as played:
        assert runner_cli(argv) == 0
    assert played == [2] and open_results(out).complete


def test_a_parameter_added_with_the_value_none_still_differs():
    """Recorded on one side only differs whatever its value: a parameter added since with
    ``None`` as its value is not taken for an absent one."""
    from hansa_lab.sim.manifest import strategy_changes

    then = {"learned": {"params": {"temperature": 0.05}}}
    now = {"learned": {"params": {"temperature": 0.05, "extra": None}}}
    assert strategy_changes(then, now) == ["learned: extra not a parameter then, None now"]
    assert strategy_changes(then, then) == [] and strategy_changes(None, now) == []


@pytest.mark.parametrize(("spec", "players", "board"), [
    ("learned", 3, "base"), ("learned", 4, "base"), ("learned", 5, "base"),
    ("learned", 4, "east"), ("learned", 4, "britannia"),
    ("strong", 4, "base"), ("strong", 3, "base"), ("strong_v2", 4, "east"),
    ("learned_rollout", 4, "base"), ("learned:model=learned_base4p_g1", 4, "base"),
    ("learned:model=learned_east4p", 3, "base"), ("strong:model=learned_base3p", 4, "base"),
])
def test_every_learned_spec_records_the_model_file_it_reads(spec, players, board):
    exp = normalize_experiment({"games": 1, "players": players, "board": board,
                                "arms": {"a": [spec, "random"] if players == 4 else [spec]}})
    name = spec.partition("model=")[2] or model_for(GameConfig(players, board))
    assert exp.model_files == {name: {"file": f"hansa_lab/strategies/data/{name}.json",
                                      "sha256": _sha(find_model(name))}}
    assert exp.configuration()["model_files"] == exp.model_files


def test_a_sweep_over_boards_records_the_model_of_each_and_a_part_only_its_own():
    exp = normalize_experiment({"games": 1, "players": [3, 4], "arms": {
        "base": ["random"], "ai": ["learned"]}})
    assert set(exp.model_files) == {model_for(GameConfig(3)), model_for(GameConfig(4))}
    assert set(exp.select(players=[3]).model_files) == {model_for(GameConfig(3))}
    assert exp.select(["base"]).model_files == {}  # the base arm reads no model
    plain = normalize_experiment({"games": 1, "arms": {"a": ["random", "greedy"]}})
    assert "model_files" not in plain.configuration()  # older runs' configurations match


@pytest.mark.parametrize(("lineup", "words"), [
    ("learned:model=missing.json,random,random", ["missing.json"]),
    ("learned:model=folder.json,random,random", ["folder.json"]),
    ("learned:model=broken.json,random,random", ["broken.json"]),
])
def test_an_unreadable_model_is_refused_before_any_game(lineup, words, model_dir, capsys):
    Path("folder.json").mkdir()
    Path("broken.json").write_text("{")
    with counting_chunks() as played:
        code, err = run_cli("bad model file", [*MODEL_RUN, "--strategies", lineup, "--out",
                                               "run"], capsys)
    assert code == 2 and played == [] and "Traceback" not in err
    assert all(w in err for w in words), err


# 2. crash safety from the first byte -----------------------------------------------------

#: the transitions a run passes before its first manifest is in place (and just after)
FIRST_MANIFEST = ("lock_taken", "manifest_temp_created", "manifest_temp_written",
                  "manifest_started")


@pytest.mark.parametrize(("transition", "forced"), [
    *((t, False) for t in FIRST_MANIFEST), ("manifest_temp_written", True)])
def test_a_kill_while_the_first_manifest_is_written_resumes(transition, forced, tmp_path,
                                                            reference):
    out = tmp_path / "run"
    argv = [*RANDOM, "--out", str(out)]
    env = {**os.environ, FAULT_ENV: f"{transition}:KILL"}
    proc = subprocess.run([sys.executable, "-m", "hansa_lab.tools.cli", *argv], env=env,
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    left = sorted(p.name for p in out.iterdir())
    if transition != "manifest_started":
        assert "manifest.json" not in left
    assert runner_cli([*argv, *(["--force"] if forced else [])]) == 0
    _tables_equal(out, reference)
    assert not [p for p in out.rglob("*") if store.is_temp_name(p.name)]


#: what a killed start may leave beside the lock (no manifest yet)
LEFTOVERS: dict[str, list[str]] = {
    "lock only": [".lock"],
    "temp manifest only": [".manifest.json.tmp-4242"],
    "lock and temp manifest": [".lock", ".manifest.json.tmp-4242"],
    "two temp manifests": [".lock", ".manifest.json.tmp-1", ".manifest.json.tmp-99999"],
    "empty temp manifest": [".manifest.json.tmp-0"],
    "probe and lock": [".probe-123", ".lock"],
    "discarded markers": [".discarded-1-2/", ".lock"],
    "other temp files": [".lock", ".chunk-000000.json.tmp-5", ".manifest.json.tmp-5"],
}


def _leave(out: Path, names: list[str]) -> None:
    out.mkdir(parents=True)
    for name in names:
        if name.endswith("/"):
            (out / name).mkdir()
            (out / name / "chunk-000000.json").write_text("{}")
        elif name == ".lock":
            (out / name).write_text(json.dumps({"pid": 2**22 + 7, "host": "gone"}))
        else:
            (out / name).write_text("" if name.endswith("-0") else '{"status": "run')


@pytest.mark.parametrize("forced", [False, True], ids=["same", "force"])
@pytest.mark.parametrize("case", list(LEFTOVERS))
def test_a_folder_left_by_a_killed_start_is_resumed_and_cleaned(case, forced, tmp_path,
                                                                 reference, capsys):
    out = tmp_path / "run"
    _leave(out, LEFTOVERS[case])
    code, err = run_cli("interrupted start", [*RANDOM, "--out", str(out),
                                              *(["--force"] if forced else [])], capsys)
    assert code == 0, err
    _tables_equal(out, reference)
    assert not {n.rstrip("/") for n in LEFTOVERS[case]} & {p.name for p in out.iterdir()}


@pytest.mark.parametrize("names", [
    ["notes.txt"], [".lock", "data.csv"], ["manifest.json.tmp-1"], [".manifest.json.tmp-1",
                                                                     "figure.png"],
    ["sub/"],
])
def test_a_folder_of_something_else_is_still_refused(names, tmp_path, capsys):
    out = tmp_path / "run"
    _leave(out, names)
    before = sorted(p.name for p in out.iterdir())
    with counting_chunks() as played:
        code, err = run_cli("foreign folder", [*RANDOM, "--out", str(out), "--force"], capsys)
    assert code == 2 and played == [] and "Traceback" not in err
    assert "holds no manifest.json" in err and str(out) in err
    assert sorted(p.name for p in out.iterdir()) == before


def test_a_live_runs_first_manifest_is_never_taken_over(tmp_path, capsys):
    """The leftovers of a start look the same while that run is alive: its lock decides."""
    out = tmp_path / "run"
    _leave(out, [".manifest.json.tmp-4242"])
    with ResultStore(out).lock(), counting_chunks() as played:
        code, err = run_cli("live start", [*RANDOM, "--out", str(out)], capsys)
        assert code == 1 and played == [] and "another run" in err
        assert (out / ".manifest.json.tmp-4242").exists()


def test_every_fault_point_is_reached(tmp_path, monkeypatch):
    """A fresh run and a forced rerun pass every transition of
    :data:`~hansa_lab.sim.store.TRANSITIONS` (each is a kill point of tests/test_faults.py
    and of the first-manifest test above)."""
    reached: list[str] = []
    monkeypatch.setattr(store, "fault_point", reached.append)
    monkeypatch.setattr(runner, "fault_point", reached.append)
    out = tmp_path / "run"
    simulate(["random"], n_games=4, n_players=3, chunk_size=2, out=out, progress=False)
    simulate(["random"], n_games=4, n_players=3, chunk_size=2, out=out, progress=False,
             force=True)
    assert set(reached) == set(TRANSITIONS)
    first = reached[:reached.index("manifest_started") + 1]
    assert first == ["lock_taken", *FIRST_MANIFEST[1:]]


# 3. replay on a damaged results folder ----------------------------------------------------

def _manifest_edit(edit: Any) -> Any:
    def damage(path: Path) -> None:
        manifest = json.loads(path.read_text())
        edit(manifest)
        path.write_text(json.dumps(manifest))
    return damage


#: ways a manifest.json is damaged (each: the file → damage it)
CORRUPT_MANIFESTS = {
    "empty": lambda p: p.write_bytes(b""),
    "cut JSON": lambda p: p.write_bytes(p.read_bytes()[:40]),
    "zero bytes": lambda p: p.write_bytes(b"\x00" * 64),
    "not UTF-8": lambda p: p.write_bytes(b"\xff\xfe{}"),
    "null": lambda p: p.write_text("null"),
    "a list": lambda p: p.write_text("[]"),
    "sessions not a list": lambda p: p.write_text('{"sessions": 3, "configuration": {}}'),
    "no design": _manifest_edit(lambda m: m.pop("design")),
    "n_chunks edited": _manifest_edit(lambda m: m["design"].update(n_chunks=1)),
    "seed edited": _manifest_edit(lambda m: m["configuration"].update(seed=5)),
    "a folder": lambda p: (p.unlink(), p.mkdir()),
}


@pytest.mark.parametrize("command", ["replay", "report"])
@pytest.mark.parametrize("damage", list(CORRUPT_MANIFESTS))
def test_a_corrupt_manifest_is_named_by_replay_and_report(damage, command, tmp_path,
                                                          reference, capsys):
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    CORRUPT_MANIFESTS[damage](out / "manifest.json")
    argv = [command, str(out), *(["--game", "0"] if command == "replay" else []),
            "--html", str(tmp_path / "page.html")]
    code, err = run_cli("corrupt manifest", argv, capsys)
    assert code == 2 and "Traceback" not in err, err
    assert "manifest.json" in err and str(out) in err and len(err.splitlines()) == 1
    assert not (tmp_path / "page.html").exists()


#: ways a chunk's table file is damaged
DAMAGES = {
    "truncated": lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]),
    "emptied": lambda p: p.write_bytes(b""),
    "deleted": lambda p: p.unlink(),
    "rewritten": lambda p: p.write_bytes(bytes(reversed(p.read_bytes()))),
}


@pytest.mark.parametrize("table", ["events", "games", "players", "turns", "failures"])
@pytest.mark.parametrize("damage", list(DAMAGES))
def test_replay_of_a_game_in_a_damaged_chunk_names_the_file(damage, table, tmp_path,
                                                            reference, capsys):
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    DAMAGES[damage](out / table / "chunk-000000.parquet")
    html = tmp_path / "page.html"
    with pytest.warns(UserWarning, match="chunk 0"):
        code, err = run_cli("damaged chunk", ["replay", str(out), "--game", "1", "--html",
                                              str(html)], capsys)
    assert code == 2 and "Traceback" not in err and len(err.splitlines()) == 1, err
    assert f"{table}/chunk-000000.parquet" in err and "chunk 0" in err and "damaged" in err
    assert "no game with id 1" in err and not html.exists()
    # a game of an intact chunk still replays
    with pytest.warns(UserWarning, match="chunk 0"):
        code, err = run_cli("damaged chunk", ["replay", str(out), "--game", "2", "--html",
                                              str(html)], capsys)
    assert code == 0 and html.exists(), err


@pytest.mark.parametrize(("case", "game", "words"), [
    ("chunk not played yet", 3, ["chunk 1", "not played yet", "1 of 2 chunks"]),
    ("game beyond the run", 4, ["no game with id 4", "game ids 0-3"]),
    ("far beyond the run", 10**12, ["game ids 0-3"]),
])
def test_replay_of_a_missing_game_says_why(case, game, words, tmp_path, reference, capsys):
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    (out / "_chunks" / "chunk-000001.json").unlink()
    code, err = run_cli("missing game", ["replay", str(out), "--game", str(game)], capsys)
    assert code == 2 and "Traceback" not in err and all(w in err for w in words), err


@pytest.mark.parametrize("what", ["missing folder", "a file", "an empty folder"])
def test_replay_of_no_results_folder_is_refused(what, tmp_path, capsys):
    target = tmp_path / "x"
    if what == "a file":
        target.write_text("x")
    elif what == "an empty folder":
        target.mkdir()
    code, err = run_cli("no results", ["replay", str(target), "--game", "0"], capsys)
    assert code == 2 and "Traceback" not in err and "manifest.json" in err and str(target) in err


@pytest.mark.parametrize("recorded", [True, False], ids=["recorded", "older run"])
@pytest.mark.parametrize("change", ["deleted", "changed"])
def test_replay_with_a_model_file_gone_or_changed_is_refused(change, recorded, model_dir,
                                                             capsys):
    argv = [*MODEL_RUN, "--strategies", LINEUPS["learned:model=PATH"], "--out", "run"]
    assert runner_cli(argv) == 0
    if not recorded:
        manifest = json.loads(Path("run/manifest.json").read_text())
        del manifest["configuration"]["model_files"]
        manifest["design_hash"] = design_hash(manifest["configuration"], manifest["design"])
        Path("run/manifest.json").write_text(json.dumps(manifest))
        for marker in Path("run/_chunks").glob("*.json"):
            data = json.loads(marker.read_text())
            data["design"] = manifest["design_hash"]
            marker.write_text(json.dumps(data))
    if change == "deleted":
        Path("m.json").unlink()
    else:
        _change_model(Path("m.json"))
    differs = pytest.warns(UserWarning, match="the replay has") if \
        (change, recorded) == ("changed", False) else contextlib.nullcontext()
    with differs:
        code, err = run_cli("replay model", ["replay", "run", "--game", "0"], capsys)
    if recorded:
        assert code == 2 and "m.json" in err and "changed" in err, err
    elif change == "deleted":  # nothing recorded to compare: the line-up cannot be built
        assert code == 2 and "m.json" in err and "cannot be replayed" in err, err
    else:  # nothing recorded: it replays, and says the replay is not the game played
        assert code == 0, err
    assert "Traceback" not in err


# 4. planning a big sweep ---------------------------------------------------------------

def _sweep(points: dict[str, list[int]], **fields: Any) -> dict[str, Any]:
    return {"name": "grid", "games": 4, "players": 3, "log": "summary",
            "arms": {"r": ["random"]}, "sweep": points, **fields}


GRID = {"control_points": [1, 2, 3], "prestige_to_end": [10, 12, 14, 16]}


def test_the_pilot_of_a_sweep_is_one_run_not_one_per_point(monkeypatch):
    """Each run pays the runner's start (a session with git and versions, a pool, a
    summary): 800 points planned as 800 runs printed nothing for 90 s."""
    from hansa_lab.studies.planning import plan_experiment

    runs: list[int] = []
    real = runner._execute

    def counting(exp: Any, *args: Any, **kwargs: Any) -> Any:
        runs.append(len(exp.conditions))
        return real(exp, *args, **kwargs)

    monkeypatch.setattr(runner, "_execute", counting)
    exp = normalize_experiment(_sweep(GRID))
    plan = plan_experiment(exp, 2.0, pilot_deals=3)
    assert len(exp.conditions) == 13  # 12 points and the unchanged game
    assert runs == [13] and plan.pilot_games == 39


@pytest.mark.parametrize("fields", [
    {},
    {"players": [3, 4]},
    {"arms": {"base": ["random"], "tip": ["random:gather=false", "random", "random"]}},
], ids=["one count", "two counts", "paired arms"])
def test_the_one_run_pilot_measures_what_a_pilot_per_point_measured(fields):
    from hansa_lab.studies.planning import PILOT_SEED_OFFSET, _pilot

    exp = normalize_experiment(_sweep({"control_points": [1, 3]}, **fields))
    pilots, games, _ = _pilot(exp, 3, 1, "core")
    together = pd.concat([r.games for r in pilots])
    for cond in exp.conditions:
        alone = simulate({a: list(lu) for a, lu in exp.arms.items()}, n_games=3 * max(
            lineup_period(exp.lineup(a, cond.n_players)) for a in exp.arms),
            n_players=cond.n_players, options=dict(cond.options),
            seed=exp.seed + PILOT_SEED_OFFSET, log="summary", progress=False).games
        mine = together[(together.n_players == cond.n_players)
                         & (together.options == alone.options.iloc[0])]
        cols = ["arm", "seed", "rotation", "lineup", "actions", "winners", "end_reason"]
        pd.testing.assert_frame_equal(mine[cols].reset_index(drop=True),
                                      alone[cols].reset_index(drop=True))
    assert games == len(together)


@pytest.mark.parametrize("quiet", [False, True], ids=["progress", "no-progress"])
def test_run_plan_of_a_sweep_shows_the_pilots_progress(quiet, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("grid.toml").write_text(
        'games = 4\nplayers = 3\nlog = "summary"\n[arms]\nr = ["random"]\n[sweep]\n'
        "control_points = [1, 2, 3]\nprestige_to_end = [10, 12, 14, 16]\n")
    code = runner_cli(["run", "grid.toml", "--plan", *(["--no-progress"] if quiet else [])])
    out, err = capsys.readouterr()
    assert code == 0 and "plan:" in out and "pilot: 52 games" in out
    assert ("grid-pilot" in err and "52/52" in err) != quiet, err
    assert not Path("results").exists()  # a plan writes no results folder
