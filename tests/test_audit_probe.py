"""The audit's probe (``--probe``): one stronger seat against the audited player, seats
rotated, tells whether a seat the player does badly in is the player's weakness or the
seat's. Made-up probe games with a known answer (a seat only the player loses in, a seat
that is hard for everyone, no seat difference), the sentences, and a tiny real run through
the command."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from hansa_lab.stats.audit import (
    audit_report,
    format_audit,
    probe_sentences,
    probe_table,
    seat_flags,
    synthetic_records,
)


def _probe_games(shares: list[float], per_seat: int, seed: int) -> tuple[pd.DataFrame,
                                                                         pd.DataFrame]:
    """Probe games: in ``per_seat`` games per seat the probe (at seat = rotation) wins with
    probability ``shares[seat]``; one other seat wins the rest."""
    rng = np.random.default_rng(seed)
    n = len(shares)
    players, games = [], []
    gid = 0
    for seat, share in enumerate(shares):
        for _ in range(per_seat):
            won = rng.random() < share
            other = (seat + 1 + int(rng.integers(n - 1))) % n
            for s in range(n):
                win = float(s == seat) if won else float(s == other)
                players.append({"game_id": gid, "seat": s, "win_share": win})
            games.append({"game_id": gid, "rotation": seat, "n_players": n})
            gid += 1
    return pd.DataFrame(players), pd.DataFrame(games)


@pytest.fixture(scope="module")
def bad_seat_flags() -> pd.DataFrame:
    # self-play in which seat 2 wins about a third as often as the others
    return seat_flags(synthetic_records(n_games=400, n_players=4, bad_seat=2, seed=3))


def test_a_seat_only_the_player_loses_in_is_the_players(bad_seat_flags):
    players, games = _probe_games([0.4, 0.4, 0.4, 0.4], per_seat=150, seed=1)
    table = probe_table(players, games, bad_seat_flags).set_index("seat")
    assert table.loc[2, "word"] == "player"
    assert table.loc[2, "self_diff"] < -0.1 and abs(table.loc[2, "probe_diff"]) < 0.1
    assert table.loc[2, "games"] == 150
    assert table.loc[2, "lo"] < table.loc[2, "win_share"] < table.loc[2, "hi"]


def test_a_seat_hard_for_the_probe_too_is_the_seats(bad_seat_flags):
    self_diff = float(bad_seat_flags.set_index(["seat", "measure"]).loc[(2, "win"), "diff"])
    # the probe gives up as much in seat 2 as the player does
    hard = 0.45 + self_diff
    players, games = _probe_games([0.45, 0.45, hard, 0.45], per_seat=300, seed=2)
    table = probe_table(players, games, bad_seat_flags).set_index("seat")
    assert table.loc[2, "word"] == "seat"
    assert table.loc[2, "probe_hi"] < 0


def test_no_seat_difference_in_either_is_none():
    flags = seat_flags(synthetic_records(n_games=300, n_players=4, bad_seat=None, seed=5))
    players, games = _probe_games([0.4] * 4, per_seat=100, seed=3)
    table = probe_table(players, games, flags)
    assert set(table.word) == {"none"}


def test_the_sentence_names_whose_the_difference_is(bad_seat_flags):
    records = synthetic_records(n_games=400, n_players=4, bad_seat=2, seed=3)
    games = pd.DataFrame({"game_id": sorted(records.game_id.unique()),
                          "end_reason": "prestige"})
    report = audit_report("learned", records, games)
    players, probe_games = _probe_games([0.4] * 4, per_seat=150, seed=1)
    report.probe = probe_table(players, probe_games, report.flags)
    report.probe_name = "strong"
    sentences = probe_sentences(report)
    assert len(sentences) == 1 and sentences[0].startswith("seat 2 wins -")
    assert "the difference is learned's, not the seat's" in sentences[0]
    text = format_audit(report)
    assert "probe: one strong against learned" in text
    assert max(len(line) for line in text.splitlines()) <= 100
    report.probe = None
    assert probe_sentences(report) == []


def test_the_command_plays_and_saves_the_probe(tmp_path, capsys):
    from hansa_lab.tools.cli import main

    out = tmp_path / "aud"
    assert main(["audit", "random", "--players", "3", "--games", "6", "--seed", "11",
                 "--reference", "none", "--probe", "greedy", "--out", str(out),
                 "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "probe: one greedy against random" in text
    table = pd.read_csv(out / "tables_base_3p" / "probe.csv")
    assert list(table.seat) == [0, 1, 2] and list(table.games) == [2, 2, 2]
    # greedy against two random players wins nearly every game it plays
    assert table.win_share.mean() > 0.5
    assert (out / "probe_greedy_vs_random_base_3p").is_dir()


def test_the_command_refuses_an_unknown_probe(tmp_path, capsys):
    from run_helpers import run_cli

    code, err = run_cli("audit", ["audit", "greedy", "--probe", "nosuch", "--out",
                                  str(tmp_path / "x")], capsys)
    assert code == 2 and "--probe: unknown strategy 'nosuch'" in err
    assert not (tmp_path / "x").exists()
