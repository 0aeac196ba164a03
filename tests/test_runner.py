"""The simulation runner: fair designs, parallel = serial, parquet output, resume after
SIGKILL / Ctrl-C, reruns, provenance, failures, dask, the prestige ledger, the CLI.

Games use the ``random`` policy and small counts; anything slower is marked ``slow``.
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

import pandas as pd
import pyarrow.parquet as pq
import pytest
from run_helpers import assert_same_tables, forbid_games

import hansa_lab
from hansa_lab.engine.actions import parse_action
from hansa_lab.engine.scoring import CATEGORIES
from hansa_lab.engine.state import GameConfig
from hansa_lab.errors import ExperimentError, SimulationFailed
from hansa_lab.play import replay
from hansa_lab.sim import runner
from hansa_lab.sim.experiment import Design, normalize_experiment
from hansa_lab.sim.logs import NONE_COLUMNS, SCHEMA
from hansa_lab.sim.runner import open_results, run_experiment, simulate, wilson_interval
from hansa_lab.strategies import RandomStrategy, Strategy, make_strategy, register, registry
from hansa_lab.tools import cli

TABLES = list(SCHEMA)
ROOT = Path(__file__).resolve().parent.parent
FOUR = ["random", "random:gather=false", "random:establish=false",
        "random:establish=false,gather=false"]


class Crasher(Strategy):
    """Plays like ``random``, but in games whose seed is a multiple of ``every`` it fails
    at its decision number ``after + 1``: it raises, or returns an illegal action."""

    name = "test_crasher"
    defaults: ClassVar[dict[str, Any]] = {"after": 3, "every": 3, "illegal": False}
    after: int
    every: int
    illegal: bool

    def setup(self) -> None:
        self.calls = 0
        self.inner = RandomStrategy()

    def choose(self, state, legal, rng):
        self.calls += 1
        if state.config.seed % self.every == 0 and self.calls > self.after:
            if self.illegal:
                return "not an action"
            raise RuntimeError(f"boom at decision {self.calls}")
        return self.inner.choose(state, legal, rng)


# registered once per process (a loky worker importing this module must not re-register)
if "test_crasher" not in registry():
    register("test_crasher")(Crasher)


# ------------------------------------------------------------------------------ design


def test_design_rotates_seats_evenly_and_pairs_arms():
    exp = normalize_experiment({
        "games": 10, "players": 4,
        "arms": {"mixed": FOUR, "pair": ["random", "random:gather=false"],
                 "all": ["random"]},
    })
    design = Design(exp, chunk_size=7)
    # distinct rotations: 4, 2 and 1 → 3 deals x 4, 5 deals x 2, 10 deals x 1
    assert design.per_arm == [{"mixed": {"deals": 3, "rotations": 4, "games": 12},
                               "pair": {"deals": 5, "rotations": 2, "games": 10},
                               "all": {"deals": 10, "rotations": 1, "games": 10}}]
    assert len(design) == 32 and "mixed 12 (4 rotations)" in design.summary()["rounding"]
    specs = list(design)
    assert [g.game_id for g in specs] == list(range(len(design)))
    assert [g for i in range(design.n_chunks) for g in design.chunk(i)] == specs
    by_arm: dict[str, list] = {}
    for g in specs:
        by_arm.setdefault(g.arm, []).append(g)
    for arm, games in by_arm.items():
        deals = design.per_arm[0][arm]["deals"]
        lineup = exp.lineup(arm, 4)
        counts = Counter((s, seat) for g in games for seat, s in enumerate(g.lineup))
        for s, copies in Counter(lineup).items():  # every strategy, every seat, equally
            assert {counts[(s, seat)] for seat in range(4)} == {
                deals * design.per_arm[0][arm]["rotations"] * copies // 4}
        for g in games:  # the focal (first) strategy sits in the seat named by the rotation
            assert g.lineup[g.rotation] == lineup[0] and g.config.seed == g.seed
        assert sorted({g.seed for g in games}) == list(range(deals))
        # no game is played twice (same seed, same seats)
        assert len({(g.seed, g.lineup) for g in games}) == len(games)
    # paired: the same seeds in every arm, deal by deal, with the same configuration
    first = {arm: [(g.seed, g.config) for g in games if g.rotation == 0]
             for arm, games in by_arm.items()}
    assert first["mixed"] == first["pair"][:3] == first["all"][:3]
    assert first["pair"] == first["all"][:5]
    # game ids go deal by deal: deal 0 of every arm first
    assert [(g.arm, g.seed, g.rotation) for g in specs[:7]] == [
        ("mixed", 0, 0), ("mixed", 0, 1), ("mixed", 0, 2), ("mixed", 0, 3),
        ("pair", 0, 0), ("pair", 0, 1), ("all", 0, 0)]


def test_lineup_period():
    from hansa_lab.stats import lineup_period

    assert lineup_period(("a", "b", "c", "d")) == 4
    assert lineup_period(("a", "b", "a", "b")) == 2
    assert lineup_period(("a", "a", "a")) == 1
    assert lineup_period(("a", "a", "b")) == 3


def test_design_conditions_cross_arms():
    exp = normalize_experiment({
        "games": 4, "seed": 100, "players": [3, 5], "edition": ["bigbox", "original"],
        "arms": {"a": ["random"], "b": ["random:gather=false"]},
    })
    assert [(c.n_players, c.edition) for c in exp.conditions] == [
        (3, "bigbox"), (3, "original"), (5, "bigbox"), (5, "original")]
    design = Design(exp)
    per = Counter((g.config.n_players, g.config.edition, g.arm) for g in design)
    assert per == {(n, e, a): 4 for n in (3, 5) for e in ("bigbox", "original") for a in "ab"}
    assert len({g.game_id for g in design}) == len(design) == 32
    assert {g.seed for g in design} == {100, 101, 102, 103}
    mixed = Design(normalize_experiment({
        "games": 4, "arms": {"b": ["random:gather=false", "random", "random"]},
        "conditions": [{"players": 3}, {"players": 3, "options": {"prestige_to_end": 15}}],
    }))
    assert [len([g for g in mixed if g.config.options == o]) for o in
            ((), (("prestige_to_end", 15),))] == [6, 6]


def test_a_run_rotates_seats_and_pairs_arms():
    res = simulate({"tip": ["random:gather=false", "random", "random", "random"],
                    "base": ["random"]}, n_games=8, progress=False)
    games, players = res.games, res.players
    assert len(games) == 16 and games.game_id.is_unique
    tip, base = games[games.arm == "tip"], games[games.arm == "base"]
    assert sorted(zip(tip.seed, tip.rotation, strict=True)) == [
        (d, k) for d in range(2) for k in range(4)]
    assert sorted(base.seed) == list(range(8)) and set(base.rotation) == {0}
    for seed in (0, 1):  # paired games share the bonus-marker draws
        assert len(set(games[games.seed == seed].options)) == 1
    p = players.merge(games[["arm", "game_id", "rotation"]], on=["arm", "game_id"])
    focal = p[(p.arm == "tip") & (p.strategy == "random:gather=False")]
    assert (focal.seat == focal.rotation).all() and sorted(focal.seat) == [0, 0, 1, 1, 2, 2,
                                                                           3, 3]


# ----------------------------------------------------------------------- serial vs loky


def test_serial_and_loky_give_the_same_tables():
    kw: dict[str, Any] = {"n_games": 12, "n_players": 4, "chunk_size": 3, "progress": False}
    serial = simulate(FOUR, n_jobs=1, **kw)
    loky = simulate(FOUR, n_jobs=2, **kw)
    assert len(serial.games) == 12 and len(serial.turns) > 0 and len(serial.events) > 0
    assert_same_tables(serial, loky)


# ------------------------------------------------------------------------- parquet files


def test_tables_are_parquet_files_with_the_schema(tmp_path):
    out = tmp_path / "run"
    res = simulate(["random"], n_games=6, n_players=3, chunk_size=2, out=out, progress=False)
    for table in TABLES:
        files = sorted((out / table).glob("chunk-*.parquet"))
        assert [f.name for f in files] == [f"chunk-{i:06d}.parquet" for i in range(3)]
        schema = pq.read_schema(files[0])
        assert schema.names == list(SCHEMA[table])
        for c, dtype in SCHEMA[table].items():  # stored in the declared width
            assert str(schema.field(c).type) == {"bool": "bool", "float64": "double"}.get(
                dtype, dtype), (table, c)
        df = getattr(res, table)
        assert list(df.columns) == list(SCHEMA[table])
        # the frames people read show "none" as <NA> (nullable integers), the files -1
        shown = {**SCHEMA[table], **NONE_COLUMNS.get(table, {})}
        assert {c: str(t) for c, t in df.dtypes.items()} == {
            c: str(pd.Series([], dtype=t).dtype) for c, t in shown.items()}
    assert sorted((out / "_chunks").iterdir()) == [
        out / "_chunks" / f"chunk-{i:06d}.json" for i in range(3)]
    assert not list(out.rglob(".*tmp*"))
    memory = simulate(["random"], n_games=6, n_players=3, chunk_size=2, progress=False,
                      name="run")
    assert_same_tables(res, memory)
    assert len(res.games) == 6 and res.games.game_id.tolist() == list(range(6))
    seat0 = res.read("players", ["game_id", "seat", "total"], filters=[("seat", "==", 0)])
    assert len(seat0) == 6 and set(seat0.seat) == {0}


def test_summary_log_skips_turns_and_events(tmp_path):
    res = simulate(["random"], n_games=3, n_players=3, out=tmp_path / "s", log="summary",
                   progress=False)
    assert not (tmp_path / "s" / "turns").exists() and not (tmp_path / "s" / "events").exists()
    assert res.turns.empty and list(res.turns.columns) == list(SCHEMA["turns"])
    assert len(res.players) == 9


# --------------------------------------------------------------------------- resuming

#: The interrupted runs play in the Python engine: in the core these 60 random games are
#: over before the test can interrupt them (the runner's handling is the same either way).
_CHILD = """
import sys
from hansa_lab.sim.runner import simulate
simulate(["random", "random:gather=false", "random"], n_games=int(sys.argv[2]), n_players=3,
         out=sys.argv[1], chunk_size=2, progress=False, n_jobs=int(sys.argv[3]),
         engine="python")
"""


def _start_child(out: Path, games: int, jobs: int, cli_args: list[str] | None = None):
    cmd = ([sys.executable, "-m", "hansa_lab.tools.cli", *cli_args] if cli_args
           else [sys.executable, "-c", _CHILD, str(out), str(games), str(jobs)])
    # the child must get Python's own Ctrl-C handler even when this process was started
    # with SIGINT ignored (a background job of a non-interactive shell is), since Python
    # keeps an inherited "ignore" and the interrupt would then do nothing
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _wait_for_chunks(proc, out: Path, n: int, timeout: float = 120) -> None:
    t0 = time.monotonic()
    while len(list((out / "_chunks").glob("chunk-*.json"))) < n:
        assert proc.poll() is None, f"run ended early: {proc.communicate()}"
        assert time.monotonic() - t0 < timeout, "no chunk completed in time"
        time.sleep(0.02)


def _snapshot(out: Path) -> dict[str, tuple[int, int, bytes]]:
    """Every completed chunk's files: (inode, mtime, content)."""
    done = [p.stem for p in (out / "_chunks").glob("chunk-*.json")]
    snap = {}
    for stem in done:
        for sub in [*TABLES, "_chunks"]:
            p = out / sub / (f"{stem}.json" if sub == "_chunks" else f"{stem}.parquet")
            st = p.stat()
            snap[str(p)] = (st.st_ino, st.st_mtime_ns, p.read_bytes())
    return snap


def _check_resumed(out: Path, before: dict, n_games: int) -> None:
    done_before = {Path(p).stem for p in before if "_chunks" in p}
    res = simulate(["random", "random:gather=false", "random"], n_games=n_games,
                   n_players=3, out=out, chunk_size=2, progress=False)
    for path, (ino, mtime, data) in before.items():  # completed chunks were kept as they were
        st = Path(path).stat()
        assert (st.st_ino, st.st_mtime_ns) == (ino, mtime), path
        assert Path(path).read_bytes() == data
    assert res.complete and len(res.games) == n_games
    sessions = res.manifest["sessions"]
    assert len(sessions) == 2 and sessions[-1]["status"] == "complete"
    assert sessions[-1]["chunks_run"] == n_games // 2 - len(done_before)
    assert not (out / ".lock").exists() and not list(out.rglob(".*tmp*"))
    fresh = simulate(["random", "random:gather=false", "random"], n_games=n_games,
                     n_players=3, chunk_size=2, progress=False, name=out.name)
    assert_same_tables(res, fresh)


@pytest.mark.slow
def test_resume_after_sigkill_keeps_completed_chunks(tmp_path):
    out = tmp_path / "killed"
    proc = _start_child(out, 60, 1)
    try:
        _wait_for_chunks(proc, out, 4)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "running"  # it never got to say otherwise
    before = _snapshot(out)
    assert 4 <= len([p for p in before if "_chunks" in p]) < 30
    # leftovers of the chunk in flight are removed on resume
    (out / "games" / ".chunk-000029.parquet.tmp-1").write_bytes(b"partial")
    (out / "players" / "chunk-000029.parquet").write_bytes(b"orphan")
    _check_resumed(out, before, 60)
    assert not (out / "games" / ".chunk-000029.parquet.tmp-1").exists()
    assert (out / "players" / "chunk-000029.parquet").read_bytes() != b"orphan"


@pytest.mark.slow
def test_resume_after_ctrl_c_with_two_workers(tmp_path):
    out = tmp_path / "interrupted"
    # 300 games: enough that the run is still going when the interrupt arrives
    args = ["simulate", "--players", "3", "--games", "300", "--strategies",
            "random,random:gather=false,random", "--chunk-size", "2", "--jobs", "2",
            "--out", str(out), "--no-progress", "--engine", "python"]
    proc = _start_child(out, 300, 2, cli_args=args)
    try:
        _wait_for_chunks(proc, out, 3)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert "interrupted" in err and "resume" in err
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "interrupted"
    assert manifest["sessions"][0]["status"] == "interrupted"
    before = _snapshot(out)
    assert 0 < manifest["progress"]["chunks_done"] == len([p for p in before if "_chunks" in p])
    _check_resumed(out, before, 300)


def test_rerun_of_a_finished_run_does_nothing_unless_forced(tmp_path, monkeypatch):
    out = tmp_path / "done"
    first = simulate(["random"], n_games=6, n_players=3, chunk_size=3, out=out,
                     progress=False)
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}

    def no_games(task):
        raise AssertionError("a game was played")

    monkeypatch.setattr(runner, "run_chunk", no_games)
    again = simulate(["random"], n_games=6, n_players=3, out=out, progress=False)
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()} == before
    assert again.complete and len(again.manifest["sessions"]) == 1
    assert_same_tables(first, again)
    with pytest.raises(AssertionError, match="a game was played"):
        simulate(["random"], n_games=6, n_players=3, out=out, progress=False, force=True)
    monkeypatch.undo()
    forced = simulate(["random"], n_games=6, n_players=3, chunk_size=3, out=out,
                      progress=False, force=True)
    assert len(forced.manifest["sessions"]) == 1
    assert (out / "games" / "chunk-000000.parquet").stat().st_mtime_ns != before[
        out / "games" / "chunk-000000.parquet"]
    assert_same_tables(first, forced)


def test_a_changed_configuration_is_refused_unless_forced(tmp_path):
    out = tmp_path / "cfg"
    simulate(["random"], n_games=3, n_players=3, out=out, progress=False)
    with pytest.raises(ExperimentError, match=r"differs in: seed") as e:
        simulate(["random"], n_games=3, n_players=3, seed=5, out=out, progress=False)
    assert e.value.field == "out"
    res = simulate(["random"], n_games=3, n_players=3, seed=5, out=out, progress=False,
                   force=True)
    assert sorted(set(res.games.seed)) == [5, 6, 7]
    other = tmp_path / "not_results"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(ExperimentError, match="not a hansa-lab results folder"):
        simulate(["random"], n_games=3, n_players=3, out=other, progress=False)
    assert (other / "notes.txt").read_text() == "mine"


# --------------------------------------------------------------------------- manifest


def test_manifest_records_provenance(tmp_path):
    out = tmp_path / "prov"
    res = simulate(["random"], n_games=4, n_players=3, seed=7, out=out, progress=False,
                   options={"prestige_to_end": 15})
    m = json.loads((out / "manifest.json").read_text())
    assert m == json.loads(json.dumps(res.manifest))
    assert m["version"] == hansa_lab.__version__ and m["package"] == "hansa-lab"
    assert m["versions"]["pandas"] == pd.__version__
    cfg = m["configuration"]
    assert cfg["arms"] == {"main": ["random"]} and cfg["games"] == 4 and cfg["seed"] == 7
    assert cfg["conditions"] == [{"players": 3, "board": "base", "edition": "bigbox",
                                  "options": {"prestige_to_end": 15}}]
    assert m["seeds"]["base"] == 7
    assert m["seeds"]["per_condition"] == [{"first": 7, "last": 10, "count": 4}]
    assert "3p main 4 (1 rotation)" in m["design"]["rounding"]
    assert m["design"]["total_games"] == 4
    commit = m["git_commit"]
    assert commit is None or (len(commit) == 40 and int(commit, 16) >= 0)
    started = datetime.fromisoformat(m["started"])
    finished = datetime.fromisoformat(m["finished"])
    assert started <= finished and started.tzinfo is not None
    assert m["machine"]["hostname"] and m["machine"]["cpu_count"] >= 1
    assert m["machine"]["python"] == sys.version.split()[0]
    assert m["status"] == "complete" and m["progress"]["games_done"] == 4
    assert m["sessions"][0]["execution"]["n_jobs"] == 1
    assert open_results(out).manifest == m


# --------------------------------------------------------------------------- failures


def test_failed_games_are_recorded_and_the_run_goes_on():
    res = simulate(["test_crasher:after=3", "random", "random", "random"], n_games=24,
                   chunk_size=5, n_jobs=2, progress=False)
    games, fails = res.games, res.failures
    failed_ids = {g for g in range(24) if (g // 4) % 3 == 0}  # seeds 0 and 3
    assert set(fails.game_id) == failed_ids
    assert set(games.game_id) == set(range(24)) - failed_ids
    assert len(res.players) == 4 * len(games) and (games.end_reason != "cap").all()
    assert set(res.events.game_id) == set(games.game_id)
    for row in fails.itertuples():
        assert row.seed in (0, 3) and row.seat == row.rotation
        assert row.strategy == "test_crasher"
        assert row.error == "RuntimeError: boom at decision 4"
        actions = row.actions.split(" ; ")
        assert len(actions) == row.action_index
        config = GameConfig(**{**json.loads(row.config), "options": ()})
        assert config.seed == row.seed
        state = replay(config, actions)  # the history replays and stops at the failing seat
        assert state.current_player == row.seat
        assert sum(1 for a in actions if parse_action(state.board, a)) == row.action_index


def test_an_illegal_action_is_a_failure():
    res = simulate(["test_crasher:after=2,illegal=true,every=1"], n_games=3, n_players=3,
                   progress=False)
    assert len(res.failures) == 3 and res.games.empty
    assert res.failures.error.str.startswith("IllegalActionError").all()


def test_fail_fast_stops_and_names_the_game(tmp_path):
    out = tmp_path / "ff"
    lineup = ["random", "random", "test_crasher:after=5,every=2"]
    kw: dict[str, Any] = {"n_games": 12, "n_players": 3, "seed": 1, "chunk_size": 2,
                          "out": out, "progress": False}
    with pytest.raises(SimulationFailed) as e:
        simulate(lineup, fail_fast=True, **kw)
    err = e.value  # seed 2 is the second deal: games 3-5; game 3 is rotation 0
    assert (err.game_id, err.seed, err.seat) == (3, 2, 2)
    assert err.strategy == "test_crasher:after=5,every=2"
    assert str(err).startswith("game 3 (seed 2, arm 'main', rotation 0) failed: strategy "
                               "'test_crasher:after=5,every=2' in seat 2: RuntimeError: boom")
    res = open_results(out)
    assert res.manifest["status"] == "stopped" and res.chunks == [0, 1]
    assert res.failures.game_id.tolist() == [3] and res.games.game_id.tolist() == [0, 1, 2]
    resumed = simulate(lineup, **kw)
    assert resumed.complete and len(resumed.games) == 6 and len(resumed.failures) == 6


def test_an_engine_error_is_recorded_too(monkeypatch):
    import hansa_lab.play.python_game as game

    real = game.apply_in_place
    calls = Counter()

    def flaky(state, action, check=False):
        if state.config.seed == 1:
            calls[state.config.seed] += 1
            if calls[state.config.seed] == 30:
                raise KeyError("engine bug")
        return real(state, action, check=check)

    monkeypatch.setattr(game, "apply_in_place", flaky)
    res = simulate(["random"], n_games=6, n_players=3, progress=False, engine="python")
    fail = res.failures
    assert len(fail) == 1 and fail.seed[0] == 1 and fail.seat[0] == -1
    assert fail.strategy[0] == "(engine)" and "KeyError: 'engine bug'" in fail.error[0]
    assert len(fail.actions[0].split(" ; ")) == fail.action_index[0] == 30
    assert len(res.games) == 5


def test_play_game_wraps_an_engine_error_with_the_game_so_far(monkeypatch):
    import hansa_lab.play.python_game as game
    from hansa_lab.errors import EngineError
    from hansa_lab.play import play_game

    real = game.apply_in_place
    seen = []

    def flaky(state, action, check=False):
        seen.append(action)
        if len(seen) == 5:
            raise KeyError("engine bug")
        return real(state, action, check=check)

    monkeypatch.setattr(game, "apply_in_place", flaky)
    with pytest.raises(EngineError, match=r"seed 4 .*after 4 actions: KeyError") as info:
        play_game(GameConfig(3, seed=4), ["random"] * 3)
    assert info.value.actions == seen and isinstance(info.value.__cause__, KeyError)
    monkeypatch.setattr(game, "apply_in_place", real)

    def broken_observer(state, index, kind, player):
        if index == 2:
            raise ValueError("observer bug")

    with pytest.raises(EngineError) as info:
        play_game(GameConfig(3, seed=4), ["random"] * 3, observer=broken_observer)
    assert len(info.value.actions) == 3 and isinstance(info.value.error, ValueError)


# ---------------------------------------------------------------------------------- dask


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.mark.slow
def test_dask_cluster_gives_the_serial_results(dask_client, tmp_path):
    kw: dict[str, Any] = {"n_games": 12, "n_players": 3, "chunk_size": 3, "progress": False}
    serial = simulate(FOUR[:3], **kw)
    with_client = simulate(FOUR[:3], backend="dask", dask_address=dask_client, **kw)
    assert_same_tables(serial, with_client)
    address = dask_client.scheduler.address
    assert address.startswith("tcp://127.0.0.1:")
    on_disk = simulate(FOUR[:3], backend="dask", dask_address=address, out=tmp_path / "d",
                       name="simulate", **kw)
    assert_same_tables(serial, on_disk)
    pids = {s["worker_pid"] for s in json.loads(json.dumps(
        [json.loads(p.read_text()) for p in (tmp_path / "d" / "_chunks").iterdir()]))}
    assert os.getpid() not in pids and len(pids) >= 1


# -------------------------------------------------------------------------------- ledger


def test_prestige_events_add_up_to_the_track_score(tmp_path):
    res = run_experiment(
        {"games": 4, "players": [3, 4, 5], "edition": ["bigbox", "original"],
         "arms": {"r": ["random"]}},
        out=tmp_path / "ledger", progress=False,
    )
    games, players, events, turns = res.games, res.players, res.events, res.turns
    assert len(games) == 6 * 4 and res.failures.empty
    assert set(games.n_players) == {3, 4, 5} and set(games.edition) == {"bigbox", "original"}
    key = ["arm", "game_id", "seat"]
    prestige = events[events.kind == "prestige"].groupby(key)["value"].sum()
    track = players.set_index(key)["track"]
    assert len(track) == (games.n_players.astype(int)).sum() and track.sum() > 0
    assert (prestige.reindex(track.index, fill_value=0) == track).all()
    assert (players[list(CATEGORIES)].sum(axis=1) == players.total).all()
    last = turns.sort_values("turn", kind="stable").groupby(key).tail(1).set_index(key)
    assert (last["prestige"].reindex(track.index) == track).all()


# --------------------------------------------------------------------- summary, compare


def test_win_difference_interval_stays_within_its_range():
    """Two deals give a t interval with 1 degree of freedom (t = 12.7): the score
    difference keeps it, the win difference is cut to [-1, 1]."""
    res = simulate({"greedy": ["greedy", "random", "random", "random"], "base": ["random"]},
                   n_games=8, n_players=4, progress=False)
    row = res.compare("base").iloc[0]
    assert row["deals"] == 2
    assert -1.0 <= row["win_diff_lo"] <= row["win_diff"] <= row["win_diff_hi"] <= 1.0
    assert row["diff_hi"] - row["diff_lo"] > 0


def test_compare_leaves_out_games_whose_base_game_is_not_done():
    """A run in progress: only the deal whose base game is finished is paired (quietly),
    and an arm with no finished pair has no row."""
    import warnings

    from hansa_lab.sim.results import Results

    res = simulate({"tip": ["greedy", "random"], "base": ["random"]}, n_games=6,
                   n_players=2, progress=False)
    games, players = res.games, res.players
    done = games[(games.arm == "tip") | (games.seed == 0)]
    part = Results(res.manifest, frames={
        "games": done, "players": players.merge(done[["arm", "game_id"]])})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        row = part.compare().iloc[0]
    assert (row["arm"], row["n"], row["deals"]) == ("tip", 2, 1)
    assert math.isnan(row["diff_lo"])  # one deal: no interval
    moved = games.assign(seed=games.seed.where(games.arm != "base", games.seed + 100))
    # (the base arm now plays other deals: nothing to pair)
    assert Results(res.manifest, frames={"games": moved, "players": players}).compare().empty


def test_results_use_the_one_wilson_interval():
    from hansa_lab import stats

    assert wilson_interval is stats.wilson_interval


def test_summary_and_paired_comparison():
    res = simulate({"base": ["random"], "same": ["random"],
                    "weak": ["random:gather=false", "random", "random"]},
                   n_games=15, n_players=3, progress=False)
    summary = res.summary()
    base = summary[summary.arm == "base"].iloc[0]
    assert base.n == 45 and base.win_rate == pytest.approx(1 / 3)
    assert base.win_lo < 1 / 3 < base.win_hi and base.score_lo < base.mean_score < base.score_hi
    seats = res.summary(by="seat")
    assert len(seats) == 9 and (seats.n == 15).all()
    cmp = res.compare().set_index("arm")
    # an arm identical to the base plays exactly the same games: zero difference
    same = cmp.loc["same"]
    assert (same.n, same.deals) == (45, 15)
    assert same.score_diff == 0 and same.diff_lo == same.diff_hi == 0
    weak = cmp.loc["weak"]
    assert weak.strategy == "random:gather=False" and weak.base_strategy == "random"
    assert (weak.n, weak.deals) == (15, 5)
    assert weak.diff_hi < 0  # not gathering pieces on routes is much worse
    text = res.report()
    assert "win_rate [95% CI]" in text and "score_diff [95% CI]" in text
    assert "random:gather=False" in text
    # the numbers are those of hansa_lab.stats: Wilson, clustered t, paired t over deals
    from hansa_lab import stats

    players = stats.with_games(res.players, res.games)
    wins = stats.win_rates(players, by=["arm", "strategy"])
    scores = stats.mean_scores(players, by=["arm", "strategy"])
    assert summary[["win_lo", "win_hi"]].to_numpy() == pytest.approx(
        wins[["lo", "hi"]].to_numpy())
    assert summary[["score_lo", "score_hi"]].to_numpy() == pytest.approx(
        scores[["lo", "hi"]].to_numpy())
    direct = stats.paired_comparison(res.players, res.games, "weak", "base").iloc[0]
    assert (weak.diff_lo, weak.diff_hi, weak.win_diff_lo) == pytest.approx(
        (direct.diff_lo, direct.diff_hi, direct.win_diff_lo))


def test_big_designs_are_lazy(monkeypatch):
    from hansa_lab.sim import experiment

    built: list[int] = []
    spec = experiment.GameSpec

    def counted(**fields: Any) -> experiment.GameSpec:
        built.append(fields["game_id"])
        return spec(**fields)

    monkeypatch.setattr(experiment, "GameSpec", counted)
    exp = normalize_experiment({"games": 100_000, "arms": {"a": FOUR}})
    design = Design(exp)
    last = design.chunk(design.n_chunks - 1)
    assert len(design) == 100_000 and design.n_chunks == 1000
    assert last[-1].game_id == 99_999 and last[-1].seed == 24_999
    # only the chunk asked for was built (a count, not a duration: no flake under load)
    assert built == list(range(99_900, 100_000))


@pytest.mark.slow
def test_memory_does_not_grow_with_the_number_of_chunks(tmp_path):
    """Written chunks are not kept: the peak for 8 chunks is about that for 2 (a runner
    holding every chunk's tables measures about 2.5 times more here)."""
    import tracemalloc

    def peak(games: int) -> int:
        tracemalloc.start()
        simulate(["random"], n_games=games, n_players=3, chunk_size=3,
                 out=tmp_path / f"m{games}", progress=False)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return peak

    simulate(["random"], n_games=3, n_players=3, out=tmp_path / "warm-up", progress=False)
    small, large = peak(6), peak(24)
    assert large < 1.5 * small, (small, large)


# ------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("kwargs", "field", "text"),
    [
        ({"strategies": ["random", "greedyy"]}, "strategies[1]", "unknown strategy 'greedyy'"),
        ({"strategies": ["random:depth=2"]}, "strategies[0]", "no parameter 'depth'"),
        ({"strategies": ["random"] * 4, "n_players": 3}, "strategies", "cannot fill 3 seats"),
        ({"n_players": 6}, "n_players", "6"),
        ({"n_players": "4"}, "n_players", "must be an integer"),
        ({"board": "moon"}, "board", "unknown board"),
        ({"edition": "deluxe"}, "edition", "bigbox, original"),
        ({"options": {"speed": 2}}, "options.speed", "unknown rule option"),
        ({"options": {"start_supply": 40}}, "options", "start_supply"),
        ({"n_games": 0}, "n_games", "positive"),
        ({"n_jobs": 0}, "n_jobs", "non-zero"),
        ({"backend": "spark"}, "backend", "loky, dask"),
        ({"chunk_size": -1}, "chunk_size", "positive"),
        ({"log": "some"}, "log", "full, summary"),
        ({"dask_address": "tcp://x:1"}, "dask_address", "only used with backend='dask'"),
    ],
)
def test_invalid_arguments_name_the_field(kwargs, field, text, tmp_path, monkeypatch):
    forbid_games(monkeypatch)
    args = {"strategies": ["random"], "n_games": 4, "out": tmp_path / "x", "progress": False,
            **kwargs}
    with pytest.raises(ExperimentError) as e:
        simulate(args.pop("strategies"), **args)
    assert e.value.field == field and text in str(e.value)
    assert not (tmp_path / "x").exists()


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('games = 4\n[arms]\ntip = ["random", "greedyy"]\n',
         "arms.tip[1]: unknown strategy 'greedyy'"),
        ('gamez = 4\n[arms]\na = ["random"]\n', "gamez: unknown field"),
        ('[arms]\na = ["random"]\n', "games: missing"),
        ('games = 4\nplayers = [3, 7]\n[arms]\na = ["random"]\n', "players: n_players must"),
        ('games = 4\n[arms]\na = ["random"]\n[[conditions]]\nedition = "x"\n',
         "conditions[0].edition: must be one of"),
        ('games = 4\n[arms]\na = ["random"]\n[[conditions]]\nboardd = "base"\n',
         "conditions[0].boardd: unknown field"),
        ('games = 4\n[arms]\na = [{name = "random", gather = false, x = 1}]\n',
         "arms.a[0]: strategy 'random' has no parameter 'x'"),
        ('games = 4\nbase_arm = "b"\n[arms]\na = ["random"]\n', "base_arm: 'b' is not"),
        ('games = 4\n[options]\nfoo = 1\n[arms]\na = ["random"]\n', "options.foo: unknown"),
        ('games = 4\n[arms\n', "invalid TOML"),
    ],
)
def test_invalid_experiment_files_name_file_and_field(body, message, tmp_path):
    path = _write(tmp_path / "experiments" / "x.toml", body)
    with pytest.raises(ExperimentError) as e:
        run_experiment(path, progress=False)
    assert str(e.value).startswith(f"{path}: ") and message in str(e.value)
    assert not (tmp_path / "results").exists()


def test_experiment_file_runs_with_overrides(tmp_path):
    path = _write(tmp_path / "experiments" / "tiny.toml", """
games = 100
players = 3
seed = 11
base_arm = "b"
[arms]
a = [{name = "random", gather = false}, "random", "random"]
b = ["random"]
""")
    res = run_experiment(path, games=3, n_jobs=1, progress=False)
    assert res.path == tmp_path / "results" / "tiny"
    assert len(res.games) == 6 and set(res.games.seed) == {11, 12, 13}
    assert res.manifest["source"]["path"] == str(path)
    assert "gather = false" in res.manifest["source"]["text"]
    assert res.manifest["configuration"]["games"] == 3
    assert set(res.games.experiment) == {"tiny"}


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "experiments").glob("*.toml")))
def test_project_experiment_files_are_valid(name):
    """Every shipped experiment file loads, names registered strategies and plans at
    least its ``games`` (the two large studies: at least 1,000)."""
    raw = runner.load_experiment(ROOT / "experiments" / name)
    for lineup in raw["arms"].values():
        for spec in lineup:
            if isinstance(spec, str):
                make_strategy(spec)  # an unknown name or parameter raises
    exp = normalize_experiment(raw, source=name)
    least = 1000 if name in ("strategy_tips.toml", "seat_balance.toml") else raw["games"]
    assert exp.name == Path(name).stem and len(Design(exp)) >= least


# ------------------------------------------------------------------------------ the CLI


def test_cli_errors_name_the_argument(tmp_path, capsys):
    out = tmp_path / "never"
    for argv, text in [
        (["--strategies", "random,greedyy"], "--strategies[1]: unknown strategy 'greedyy'"),
        (["--players", "3", "--strategies", "random,random,random,random"],
         "--strategies: 4 strategies cannot fill 3 seats"),
        (["--option", "speed=3"], "--option speed: unknown rule option"),
        (["--option", "prestige_to_end=abc"],
         "--option: rule option prestige_to_end must be an integer 1-1000, got 'abc'"),
        (["--option", "prestige_to_end=0"], "must be an integer 1-1000, got 0"),
        (["--option", "nonsense"], "--option: expected KEY=VALUE"),
        (["--jobs", "0"], "--jobs: must be a non-zero integer"),
        (["--board", "moon"], "--board: unknown board"),
    ]:
        code = cli.main(["simulate", "--games", "4", "--out", str(out), "--no-progress", *argv])
        err = capsys.readouterr().err
        assert code == 2 and text in err, (argv, err)
    for argv, text in [  # play checks its line-up like simulate
        (["--strategies", "greedy,foo"],
         "--strategies: strategy 2 of the line-up ('foo'): unknown strategy 'foo'"),
        (["--strategies", "random,random,random"], "3 strategies cannot fill 4 seats"),
        (["--board", "nosuch"], "known boards: base, east, britannia, base_3p, base_45p, "
                                "britannia_3p, britannia_45p"),
    ]:
        assert cli.main(["play", "--players", "4", "--seed", "1", *argv]) == 2, argv
        err = capsys.readouterr().err
        assert text in err, (argv, err)
    assert cli.main(["play", "--players", "4", "--seed", "1", "--strategies", "random,greedy",
                     "--json"]) == 0
    seats = [p["strategy"] for p in json.loads(capsys.readouterr().out)["players"]]
    assert seats == ["random", "greedy", "random", "greedy"]
    with pytest.raises(SystemExit) as e:
        cli.main(["simulate", "--games", "many"])
    assert e.value.code == 2 and "--games" in capsys.readouterr().err
    bad = _write(tmp_path / "experiments" / "bad.toml",
                 'games = 4\n[arms]\ntip = ["random", "greedyy"]\n')
    assert cli.main(["run", str(bad), "--no-progress"]) == 2
    assert f"{bad}: arms.tip[1]: unknown strategy 'greedyy'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:  # the bound is checked as the flag is parsed
        cli.main(["run", str(bad), "--games", "0"])
    assert e.value.code == 2 and "--games must be >= 1, got 0" in capsys.readouterr().err
    assert not out.exists() and not (tmp_path / "results").exists()


def test_cli_simulate_and_run_end_to_end(tmp_path, capsys):
    out = tmp_path / "cli_run"
    code = cli.main(["simulate", "--players", "3", "--games", "3", "--strategies",
                     "random,random:gather=false,random", "--seed", "4", "--out", str(out),
                     "--no-progress", "--option", "prestige_to_end=15"])
    text = capsys.readouterr().out
    assert code == 0 and "win_rate [95% CI]" in text and "random:gather=False" in text
    res = open_results(out)
    assert len(res.games) == 3 and set(res.games.seed) == {4}
    assert res.games.options.iloc[0] == '{"prestige_to_end": 15}'
    path = _write(tmp_path / "experiments" / "cli_exp.toml",
                  'games = 3\nplayers = 3\n[arms]\na = ["random"]\n')
    assert cli.main(["run", str(path), "--no-progress", "--jobs", "1"]) == 0
    assert "Per seat" in capsys.readouterr().out
    assert len(open_results(tmp_path / "results" / "cli_exp").games) == 3


def test_console_script(tmp_path):
    script = Path(sys.executable).parent / "hansa-lab"
    out = tmp_path / "script_run"
    proc = subprocess.run(
        [str(script), "simulate", "--players", "3", "--games", "3", "--out", str(out),
         "--jobs", "2", "--chunk-size", "1"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "win_rate [95% CI]" in proc.stdout and "game" in proc.stderr  # progress bar
    assert len(list((out / "games").glob("chunk-*.parquet"))) == 3
    proc = subprocess.run([str(script), "simulate", "--games", "3", "--strategies", "nope"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--strategies[0]: unknown strategy 'nope'" in proc.stderr


def test_main_job_runs_the_tips_experiment_forced(tmp_path, monkeypatch, capsys):
    _write(tmp_path / "experiments" / "quick.toml", """
name = "quick"
games = 1000
players = 3
base_arm = "base"
[arms]
base = ["random"]
tip = ["random:gather=false", "random", "random"]
""")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "MAIN_EXPERIMENT", "quick.toml")
    for _ in range(2):  # always reruns (forced)
        assert cli.main(["main", "--games", "3", "--jobs", "1", "--no-progress"]) == 0
        text = capsys.readouterr().out
        assert "Focal strategy vs the same seat of arm 'base'" in text and "tip" in text
        res = open_results(tmp_path / cli.MAIN_OUT)
        assert len(res.manifest["sessions"]) == 1 and len(res.games) == 6


@pytest.mark.slow
def test_runner_benchmark_reports_its_figures(capsys):
    assert cli.main(["bench", "--suite", "runner", "--players", "3", "--games", "6",
                     "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    log = out["logging"]
    assert log["games"] == 4 and log["logged_ratio"] > 0  # max(4, 6 // 4) games
    assert log["logged_throughput_cost"] == pytest.approx(1 - 1 / log["logged_ratio"], abs=2e-3)
    by_players = out["logging_by_players"]
    assert set(by_players) == {"2p", "3p", "4p", "5p"}
    assert by_players["3p"]["logged_ratio"] == log["logged_ratio"]
    e2e = out["end_to_end"]
    assert e2e["games"] == 6 and e2e["full_ratio"] > 0 and e2e["summary_ratio"] > 0
    par = out["parallel"]
    assert set(par["runner_seconds"]) == {"n_jobs=1", "n_jobs=2"}
    assert par["runner_speedup"] == pytest.approx(
        par["runner_seconds"]["n_jobs=1"] / par["runner_seconds"]["n_jobs=2"], rel=0.01)
    sizes = out["logs_per_1000_games"]
    assert sizes["chunk_size"] == 6
    assert (sizes["games"]["rows"], sizes["players"]["rows"]) == (1000, 3000)
    assert sizes["turns"]["rows"] > 100_000 and sizes["total"]["parquet_bytes"] > 0
    assert cli.main(["bench", "--suite", "runner", "--games", "2", "--players", "3"]) == 2


def test_jobs_are_capped_by_the_chunks_and_warned_past_the_cores(monkeypatch, capsys):
    seen: list[int] = []
    real = runner._iter_joblib

    def spy(tasks, n_jobs):
        seen.append(n_jobs)
        return real(tasks, 1)

    monkeypatch.setattr(runner, "_iter_joblib", spy)
    monkeypatch.setattr(runner, "usable_core_count", lambda: 2)
    simulate(["random"], n_games=3, n_players=3, chunk_size=1, n_jobs=40, progress=True)
    assert seen == [3]  # not 40: one worker per chunk at most
    assert "warning: 3 worker processes on 2 cores" in capsys.readouterr().err
    simulate(["random"], n_games=3, n_players=3, chunk_size=1, n_jobs=-1, progress=True)
    assert seen[-1] == 2 and "warning" not in capsys.readouterr().err


def test_a_run_whose_games_all_failed_exits_non_zero(capsys):
    crash = "test_crasher:every=1"  # every game fails (no comma: the CLI splits on them)
    code = cli.main(["simulate", "--games", "3", "--players", "3", "--strategies", crash,
                     "--no-progress"])
    captured = capsys.readouterr()
    assert code == 1 and "every one of the 3 games failed" in captured.err
    assert cli.main(["simulate", "--games", "3", "--players", "3", "--no-progress",
                     "--strategies", "test_crasher:every=2"]) == 0  # seed 1 plays
    capsys.readouterr()
    for argv in (["play", "--players", "3", "--strategies", crash],
                 ["replay", "--players", "3", "--strategies", crash, "--html", "x.html"]):
        assert cli.main(argv) == 1
        err = capsys.readouterr().err
        assert "the game failed: strategy 'test_crasher" in err and "boom" in err
