"""``compare --retrain`` and :mod:`hansa_lab.studies.retrain` (issue 39, item 4): players
trained for the variant being studied — the cache key, the reuse of a cached model, the
warm start's pull toward the printed model, the retrained model playing, the refusal of a
population without a model, and the sentence that says whether re-training changed the
answer, both ways."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from hansa_lab.engine.state import GameConfig
from hansa_lab.play import play_game
from hansa_lab.stats.best import most_balanced_of
from hansa_lab.strategies.learned import find_model, load_model, model_for
from hansa_lab.studies import learn, retrain
from hansa_lab.studies.learn import TEMPO_FEATURES, feature_names, fit_model, load_dataset
from hansa_lab.studies.retrain import (
    retrain_key,
    retrain_settings,
    retrained_model,
)
from hansa_lab.tools.cli import main
from hansa_lab.tools.commands.compare import RetrainComparison, compare, retrain_sentence

GAMES = 3  # per line-up: 9 games, the fewest a fit takes with some to spare
OPTIONS = (("start_supply", 3),)


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> retrain.Retrained:
    """One tiny retraining (3 players, start supply 3) into a cache of its own."""
    cache = tmp_path_factory.mktemp("models")
    return retrained_model("base", 3, "bigbox", OPTIONS, games=GAMES, cache=cache)


def key(options: object = OPTIONS, **kw: object) -> str:
    args = {"board": "base", "n_players": 3, "edition": "bigbox", "options": options,
            "model": "learned_base3p", "games": GAMES, **kw}
    return retrain_key(**args)  # type: ignore[arg-type]


def test_the_key_follows_the_rules_and_the_recipe_not_irrelevant_input() -> None:
    base = key()
    assert len(base) == 12
    # the variant's rules, the printed model and the recipe change it
    assert key((("start_supply", 4),)) != base
    assert key((*OPTIONS, ("control_points", 4))) != base
    assert key(n_players=4) != base
    assert key(model="learned_base4p") != base
    assert key(games=GAMES + 1) != base
    assert key(seed=7) != base
    # the options' order and an option given at its printed value do not
    two = key((("start_supply", 3), ("control_points", 4)))
    assert key((("control_points", 4), ("start_supply", 3))) == two
    assert key((*OPTIONS, ("prestige_to_end", 20))) == base
    assert key([["start_supply", 3]]) == base  # as JSON reads it back
    # and the data the key stands for is played under the variant's rules
    s = retrain_settings("base", 3, "bigbox", OPTIONS, "learned_base3p", games=GAMES)
    assert s.options == OPTIONS
    assert s.lineups[0] == ("strong:model=learned_base3p",) * 3
    with pytest.raises(ValueError, match="unknown rule option 'nope'"):
        key((("nope", 1),))


def test_a_cached_model_is_reused_without_a_game(trained: retrain.Retrained,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    assert not trained.reused and trained.path.name == f"retrain_{trained.key}.json"

    def no_games(*a: object, **k: object) -> None:
        raise AssertionError("a cached model was trained again")

    monkeypatch.setattr(retrain, "build_dataset", no_games)
    again = retrained_model("base", 3, "bigbox", list(OPTIONS), games=GAMES,
                            cache=trained.path.parent, jobs=2)
    assert again.reused and again.path == trained.path and again.key == trained.key
    assert again.wall_seconds == pytest.approx(trained.wall_seconds, abs=0.1)


def test_the_retrained_model_loads_records_its_training_and_plays(
        trained: retrain.Retrained) -> None:
    model = load_model(trained.path)
    record = model.meta["training"]
    assert record["retrain"]["printed_model"] == model_for(GameConfig(3))  # model=auto
    assert record["retrain"]["wall_seconds"] > 0 and record["retrain"]["jobs"] == 1
    assert record["data"]["options"] == {"start_supply": 3}
    assert model.kind == load_model(find_model("learned_base3p")).kind
    config = GameConfig(3, "base", seed=11, options=OPTIONS)
    for spec in (f"learned:model={trained.path}", f"strong:model={trained.path}"):
        rec = play_game(config, [spec] * 3, engine="core")
        assert rec.final.end_reason is not None, spec  # played to its end


def test_the_warm_start_pulls_toward_the_printed_weights(trained: retrain.Retrained) -> None:
    settings = retrain_settings("base", 3, "bigbox", OPTIONS, "learned_base3p", games=GAMES)
    ds = load_dataset(settings, trained.path.parent / f"retrain_{trained.key}_data")
    prior = load_model(find_model("learned_base3p"))
    keep = np.array([n not in TEMPO_FEATURES for n in feature_names()])

    def distance(alpha: float, warm: bool) -> float:
        rep = fit_model(ds, 1, "m", alphas=(alpha,), kinds=("logistic_win",),
                        prior=prior if warm else None)
        w0 = np.asarray(prior.weights) * np.asarray(rep.model.scale) / np.asarray(prior.scale)
        return float(np.abs(np.asarray(rep.model.weights)[keep] - w0[keep]).max())

    assert distance(10.0, True) < 0.5 * distance(10.0, False)
    assert distance(1e9, True) < 1e-3  # an overwhelming pull keeps the printed model
    # the penalty on w − w0 with w0 = 0 is the plain fit
    z = np.random.default_rng(3).normal(size=(200, 4))
    y = (z[:, 0] + np.random.default_rng(4).normal(size=200) > 0).astype(float)
    plain = learn._logistic(z, y, 2.0)
    zero = learn._logistic(z, y, 2.0, w0=np.zeros(4))
    assert np.allclose(plain[0], zero[0]) and plain[1] == pytest.approx(zero[1])
    with pytest.raises(ValueError, match="fits the prior's kind only"):
        fit_model(ds, 1, "m", kinds=("ridge_margin",), prior=prior)


def test_a_population_without_a_model_is_refused_before_a_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match=r"^population: --retrain .* 'greedy' takes no "
                                         r"model="):
        compare(3, {"start_supply": [3, 5]}, "greedy", games=4, out=tmp_path / "run",
                retrain=True, progress=False)
    assert not (tmp_path / "run").exists()
    code = main(["compare", "--players", "3", "--option", "start_supply=3,5", "--games", "4",
                 "--retrain", "--out", str(tmp_path / "run"), "--no-progress"])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err.count("\n") == 1 and "--population: --retrain" in captured.err
    assert main(["compare", "--option", "start_supply=3,5", "--retrain", "--ladder"]) == 2
    assert "not with --ladder" in capsys.readouterr().err


def _answer(rows: dict[str, tuple[int, float]], population: str) -> object:
    """A constructed answer: variant → (games, seat 0's wins), 3 players."""
    t = pd.DataFrame({"options": list(rows), "games": [g for g, _ in rows.values()],
                      "fair": 1 / 3, "first_seat_wins": [w for _, w in rows.values()],
                      "seat_gap": 0.1, "gap_lo": 0.0, "gap_hi": 0.2})
    return most_balanced_of(t, population=population)


def test_the_sentence_says_changed_only_when_the_best_sets_share_nothing() -> None:
    printed = _answer({"default": (900, 450.0), "x": (900, 300.0), "y": (900, 450.0)},
                      "strong")
    moved = _answer({"default": (900, 450.0), "x": (900, 450.0), "y": (900, 300.0)},
                    "strong retrained")
    same = _answer({"default": (900, 450.0), "x": (900, 310.0), "y": (900, 440.0)},
                   "strong retrained")
    assert printed.best_set == ["x"] and moved.best_set == ["y"]  # type: ignore[attr-defined]
    changed = RetrainComparison(printed, moved, {}, retrain_sentence(
        printed.best_set, moved.best_set))  # type: ignore[attr-defined]
    assert changed.sentence == ("re-training changed the answer: most balanced with the "
                                "printed rules' players: x; with players retrained for each "
                                "variant: y.")
    lines = changed.lines()
    assert lines[-1] == changed.sentence
    row = {ln.split()[0]: ln for ln in lines if ln.startswith("  ") and ln.split()[0] in
           ("default", "x", "y")}
    assert not row["default"].endswith("moved")  # the same estimate both ways
    assert row["x"].endswith("moved") and row["y"].endswith("moved")
    unchanged = RetrainComparison(printed, same, {}, retrain_sentence(
        printed.best_set, same.best_set))  # type: ignore[attr-defined]
    assert unchanged.sentence == ("re-training did not change the answer (most balanced both "
                                  "ways: x).")
    assert not any(ln.endswith("moved") for ln in unchanged.lines())
    assert retrain_sentence(["x", "y"], ["y"]).startswith(
        "re-training did not change the answer (no evidence it changed: ")


def test_compare_retrain_end_to_end_writes_and_prints_the_sentence(
        trained: retrain.Retrained, tmp_path: Path) -> None:
    """One tiny real run: the variant's model comes from the fixture's cache, the printed
    rules' is trained by the same recipe (so both answers' models differ only in their
    rules)."""
    out = tmp_path / "run"
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        c = compare(3, {"start_supply": [3, 5]}, "learned", games=6, out=out, retrain=True,
                    retrain_cache=trained.path.parent, retrain_games=GAMES, progress=False,
                    report=False)
    assert c.retrained is not None and c.retrained.models["start_supply=3"].reused
    default = c.retrained.models["default"]
    assert not default.reused and default.key == retrain_key(
        "base", 3, "bigbox", (), model_for(GameConfig(3)), games=GAMES)
    assert (out / "retrained" / "default" / "manifest.json").is_file()
    text = (out / "retrain.txt").read_text("utf-8")
    assert text.strip().splitlines()[-1] == c.retrained.sentence
    assert c.retrained.sentence.startswith("re-training ")
    spec = json.loads((out / "retrained" / "start_supply_3" / "manifest.json")
                      .read_text("utf-8"))["configuration"]
    assert spec["conditions"][0]["options"] == {"start_supply": 3}
    assert str(trained.path) in json.dumps(spec["arms"])
