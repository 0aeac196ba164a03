"""A results folder written before a column existed still opens: the missing column reads
as its "unknown" value instead of failing in pyarrow."""

from __future__ import annotations

import json

import pyarrow.parquet as pq

from hansa_lab.sim.results import open_results
from hansa_lab.sim.runner import simulate


def test_a_run_without_a_newer_column_still_reads(tmp_path) -> None:
    out = tmp_path / "old"
    simulate(["random"], n_games=3, n_players=3, progress=False, out=out)
    for f in (out / "games").glob("*.parquet"):  # as an older version wrote it:
        pq.write_table(pq.read_table(f).drop_columns(["quiet_rounds", "stalled"]), f)
    for marker in (out / "_chunks").glob("*.json"):  # … with markers without checksums
        record = json.loads(marker.read_text())
        record.pop("files")
        marker.write_text(json.dumps(record))
    res = open_results(out)
    games = res.read("games")
    assert len(games) == 3 and not games["stalled"].any()
    assert (games["quiet_rounds"] == -1).all() and str(games["quiet_rounds"].dtype) == "int32"
    assert "3 players, base_3p" in res.report()
