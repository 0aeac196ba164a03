# ruff: noqa: E501  (notebook cell sources are kept as written)
"""Write the study notebooks (``notebooks/0*.ipynb``) from the cells below.

    python scripts/make_notebooks.py

The notebooks are committed; this script keeps their source reviewable as Python. They
run top to bottom; ``HANSA_LAB_SIZE=small`` makes them fast (the test suite does that).
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

ROOT = Path(__file__).resolve().parents[1]

# Figures show inline at every size (``%matplotlib inline`` also when MPLBACKEND=Agg is
# set, as in the test suite) and are saved to files by their ``save=`` arguments; tables
# show three decimals (no 1.387779e-17 for a zero, no six-decimal floats).
#
# Sizes: each notebook's default (full) size runs top to bottom in at most 10 minutes on
# 2 cores; its "Size" cell states the measured time and the widths of its main 95%
# intervals at that size. Re-measure and update that text when a size changes.
SETUP = """\
%matplotlib inline
import pandas as pd
from hansa_lab.tools import study
pd.set_option("display.width", 120)
pd.set_option("display.float_format", "{:.3f}".format)
print("study size:", study.size())"""

NOTEBOOKS: dict[str, list[tuple[str, str]]] = {
    "01_quickstart": [
        ("md", """# Quickstart

Play one game, look at its tables, then run a batch and draw one plot.

**Size.** Default: a batch of 10,000 games (`HANSA_LAB_SIZE=small`: 8). The whole notebook
ran in 56 s at the default size (measured 2026-11-30 on a shared, busy 2-core machine). 95% intervals at that size: win rates ±0.4
percentage points, mean scores ±0.1 points."""),
        ("code", SETUP),
        ("md", "## One game\nA game is fully defined by its configuration, seed and actions."),
        ("code", """from hansa_lab import GameConfig, play_game
from hansa_lab.engine.text import describe

record = play_game(GameConfig(n_players=4, seed=7), ["greedy", "random", "random", "random"])
result = record.result()
print(result["end_reason"], "after", result["n_actions"], "actions")
pd.DataFrame([{"seat": p["seat"], "strategy": p["strategy"], "total": p["total"], **p["breakdown"]}
              for p in result["players"]])"""),
        ("code", "print(describe(record.final))"),
        ("md", "## Its tables\nThe same game as tidy tables (one declared schema: `hansa_lab.sim.logs.SCHEMA`)."),
        ("code", """from hansa_lab.sim.logs import record_game, to_frame

rows = record_game(GameConfig(n_players=4, seed=7), ["greedy", "random", "random", "random"], game_id=0)
turns = to_frame("turns", rows["turns"])
events = to_frame("events", rows["events"])
turns[["round", "turn", "seat", "prestige", "projected", "lv_actions", "supply_t"]].tail(8)"""),
        ("code", 'events[events.kind.isin(["develop", "kontor", "east_west"])].head(10)'),
        ("md", "## A batch\nSeats rotate so every strategy plays every seat equally often. "
               "At the default size (10,000 games) the win-rate intervals are within ±0.4 "
               "percentage points and the mean-score intervals within ±0.1 points."),
        ("code", """from hansa_lab import simulate

res = simulate(["greedy", "random", "random", "random"], n_games=study.pick(8, 10000),
               n_players=4, seed=100, n_jobs=2, out=study.results_dir("quickstart"),
               progress=False)
res.summary()"""),
        ("code", """from hansa_lab.stats import plots

fig = plots.plot_score_breakdown(res.players, by="strategy", split=None,
                                 save=study.results_dir("quickstart") / "breakdown.png")
fig"""),
    ],
    "02_strategy_tips": [
        ("md", """# Do the strategy tips work?

Each tip from the seed documents is written as **greedy plus exactly one tip**
(`hansa_lab.strategies.greedy`). Each arm puts the tip in one seat against three greedy
players; the base arm is all greedy. Arms share seeds and seat rotations, so each tip
game has a matched base game (same bonus-marker draws, same seat): the paired difference
of the focal seat's result removes most of the luck. Several tips are tested together,
so p-values are Holm-adjusted.

**Size.** Default: 1,600 games per arm (tip arms: 400 deals × 4 seat rotations; base: 1,600
deals), 8,000 games in all, then 800 per arm (4,000) among planners (`HANSA_LAB_SIZE=small`:
8 per arm, so every tip arm has 2 deals and real, wide intervals). The planners' experiment alone took 2 min 34 s at that size (`hansa-lab run
experiments/strategy_tips_planner.toml --games 800 --jobs 2`, 2026-12-01). The greedy part ran in 6 min 6 s at the default size (measured 2026-11-30 on a shared, busy 2-core machine). 95% intervals at that size: each tip's score effect
±0.3 to ±0.6 points, win-rate differences ±1.5 to ±2.5 percentage points."""),
        ("code", SETUP),
        ("code", """from hansa_lab import run_experiment

res = run_experiment("../experiments/strategy_tips.toml", games=study.pick(8, 1600),
                     out=study.results_dir("strategy_tips"), n_jobs=2, progress=False)
players, games = res.players, res.games
print(len(games), "games;", games.end_reason.value_counts().to_dict())"""),
        ("md", "## Effect of each tip on the focal seat (paired with the all-greedy base)\n"
               "At the default size: score intervals (`diff_lo`, `diff_hi`) within ±0.6 "
               "points, win-rate differences (`win_diff_lo`, `win_diff_hi`) within ±2.5 "
               "percentage points."),
        ("code", """from hansa_lab import stats

score = stats.compare_arms(players, games, base="base", focal=0, value="total")
wins = stats.compare_arms(players, games, base="base", focal=0, value="win_share")
score"""),
        ("code", "wins"),
        ("md", "## Verdicts\nThe same method as `hansa-lab run` prints: the focal player's final "
               "score, paired over deals, Holm-adjusted over the tips; \"helps\"/\"hurts\" only "
               "when the adjusted test rejects at 5%; otherwise \"no clear effect\" with the "
               "difference this run would have detected (80% power), or \"too few games to "
               "tell\"; then the deals still needed for ±1 point. The tables above show the "
               "essential columns (`score.full` has all of them). Statistics guide: "
               "`docs/guides/statistics.md`."),
        ("code", """for line in stats.comparison_verdicts(score).itertuples():
    print(f"{line.arm_a:>14}: {line.text}")"""),
        ("code", """from hansa_lab.stats import plots

plots.plot_comparison(score, save=study.results_dir("strategy_tips") / "tips_score.png")"""),
        ("md", """## Among strong players

Greedy tables are weak (late third action, no City Keys, no Coellen), so a tip may help
there and not among good players. The same design with the shipped **`planner`** as the
population (`experiments/strategy_tips_planner.toml`): greedy with the evaluation weights
tuned by `hansa-lab tune` — the evaluation the `strong` search player uses, at greedy's
speed. Each tip seat plays the tip's term on top of the planner's weights against three
planners; the base arm is all planners. At the default size (800 games per arm) each
tip's score interval is within about ±0.9 points."""),
        ("code", """strong_res = run_experiment("../experiments/strategy_tips_planner.toml",
                            games=study.pick(8, 800), n_jobs=2, progress=False,
                            out=study.results_dir("strategy_tips_planner"))
strong_score = stats.compare_arms(strong_res.players, strong_res.games, base="base", focal=0,
                                  value="total")
strong_verdicts = stats.comparison_verdicts(strong_score).set_index("arm_a")
greedy_verdicts = stats.comparison_verdicts(score).set_index("arm_a")
both = pd.DataFrame({
    "greedy_diff": greedy_verdicts["diff"], "greedy_lo": greedy_verdicts["diff_lo"],
    "greedy_hi": greedy_verdicts["diff_hi"], "greedy_verdict": greedy_verdicts["verdict"],
    "planner_diff": strong_verdicts["diff"], "planner_lo": strong_verdicts["diff_lo"],
    "planner_hi": strong_verdicts["diff_hi"], "planner_verdict": strong_verdicts["verdict"]})
both"""),
        ("md", "Where the conclusion changes with the population (a verdict that differs "
               "between the two tables; \"no clear effect\" in either one only says that "
               "this size could not tell):"),
        ("code", """for tip, row in both.iterrows():
    same = row.greedy_verdict == row.planner_verdict
    print(f"{tip:>14}: greedy tables: {row.greedy_verdict} ({row.greedy_diff:+.1f}); "
          f"planner tables: {row.planner_verdict} ({row.planner_diff:+.1f})"
          + ("" if same else "  <- the conclusion changes"))"""),
    ],
    "03_balance": [
        ("md", """# Balance

Seat (first-player) advantage by player count and board side, the two bonus-marker
editions, and a sweep of one rule knob (the starting supply).

**Size.** Default: 1,000 games per arm and condition in the seat study (2 arms × 6
conditions, 12,000 games), 800 games per starting supply, 400 games per board side
(`HANSA_LAB_SIZE=small`: 6, 8 and 4), and 1,000 planner games per player count (3,000; about
2 minutes more, estimated from the planners' tips run of notebook 02, not measured in this
notebook). Without the planner section the whole notebook ran in 7 min 35 s at the default
size (measured 2026-11-30 on a shared, busy 2-core machine). 95% intervals at that size: each seat's win rate ±2.3 to ±3.0 percentage
points and mean score ±0.5 to ±0.6 points; mean scores per edition ±0.2 points; the first
seat's win rate per starting supply ±3.1 percentage points. The board comparison shows
means only."""),
        ("code", SETUP),
        ("code", """from hansa_lab import run_experiment
from hansa_lab import stats
from hansa_lab.stats import plots

seats = run_experiment("../experiments/seat_balance.toml", games=study.pick(6, 1000),
                       out=study.results_dir("seat_balance"), n_jobs=2, progress=False)
table = stats.seat_advantage(seats.players, seats.games)  # per arm, player count, edition
table"""),
        ("md", "At the default size (1,000 games per arm and condition) each seat's win-rate "
               "interval is within ±3.0 percentage points and its mean-score interval within "
               "±0.6 points."),
        ("md", "## Verdicts\nSeats are numbered from 0 (seat 0 moves first) everywhere. "
               "\"Unbalanced\" when equal seats are rejected (win counts or Friedman on scores, "
               "Holm-adjusted over every table; the table's `p_wins_holm`/`p_score_holm`), with "
               "the seats off their fair share. \"Balanced\" only when nothing is rejected *and* "
               "the run would have seen a seat gap of 5 percentage points with 80% power; "
               "otherwise \"no clear seat difference\" with the gap it could see, or \"too few "
               "games to tell\"."),
        ("code", """for line in stats.seat_verdicts(table):
    print(line)"""),
        ("code", 'plots.plot_seat_advantage(table, save=study.results_dir("seat_balance") / "seats.png")'),
        ("md", """## Seat advantage among strong players

The seat study above seats greedy (and random) players. The same question for a table
of the shipped **`planner`** (greedy with the tuned evaluation weights that the `strong`
search uses), at 3, 4 and 5 players with the Big Box markers (at the default size, 1,000
games per player count: each seat's win rate within about ±3 percentage points)."""),
        ("code", """strong_seats = run_experiment(
    {"name": "seat_balance_planner", "games": study.pick(6, 1000), "seed": 0,
     "log": "summary", "players": [3, 4, 5], "board": "base", "edition": "bigbox",
     "arms": {"planner": ["planner"]}},
    out=study.results_dir("seat_balance_planner"), n_jobs=2, progress=False)
strong_table = stats.seat_advantage(strong_seats.players, strong_seats.games)
for line in stats.seat_verdicts(strong_table):
    print(line)
first = pd.concat([table[(table.seat == 0) & (table.edition == "bigbox")].assign(population=table.arm),
                   strong_table[strong_table.seat == 0].assign(population="planner")])
first[["population", "n_players", "win_rate", "win_lo", "win_hi", "mean_score"]]"""),
        ("md", "## Editions: `bigbox` against `original` bonus markers"),
        ("code", """g = stats.with_games(seats.players, seats.games)
edition = stats.mean_scores(g, by=["edition", "n_players"])
edition"""),
        ("code", 'stats.end_reason_mix(seats.games, by=["edition", "n_players"])'),
        ("md", """## A rule knob: the starting supply

`start_supply` is seat 0's starting traders (seat k gets `start_supply + k`).
How does the first seat's win rate move? (At the default size, 800 games per value, its
interval is ±3.1 percentage points.)"""),
        ("code", """from hansa_lab import simulate

rows = []
for supply in (4, 5, 6):
    r = simulate(["greedy"], n_games=study.pick(8, 800), n_players=4, seed=500,
                 options={"start_supply": supply}, n_jobs=2, progress=False,
                 out=study.results_dir(f"start_supply_{supply}"))
    t = stats.seat_advantage(r.players, r.games)
    first = t[t.seat == 0].iloc[0]
    rows.append({"start_supply": supply, "seat0_win_rate": first["win_rate"],
                 "lo": first["win_lo"], "hi": first["win_hi"], "n": first["n"]})
knob = pd.DataFrame(rows)
knob"""),
        ("md", "## Boards\nThe same greedy table on every board side that supports 4 players."),
        ("code", """boards = []
for board in ("base", "east", "britannia"):
    try:
        r = simulate(["greedy"], n_games=study.pick(4, 400), n_players=4, board=board,
                     seed=900, n_jobs=2, progress=False,
                     out=study.results_dir(f"board_{board}"))
    except ValueError as e:  # a board the engine does not support yet
        print(board, "skipped:", e)
        continue
    q = stats.game_quality(r.games, r.players, r.turns)
    boards.append({"board": board, "games": len(r.games),
                   "mean_actions": r.games.actions.mean(),
                   "mean_total": r.players.total.mean(),
                   "end_reasons": r.games.end_reason.value_counts().to_dict()})
pd.DataFrame(boards)"""),
    ],
    "04_score_breakdowns": [
        ("md", """# Score breakdowns

Where do the points come from, per strategy and per player count?

**Size.** Default: 3,000 games per player count (3, 4 and 5 players: 9,000 games) and 1,000
bootstrap resamples for the ratings (`HANSA_LAB_SIZE=small`: n games per count, 50
resamples). The whole notebook ran in 5 min 28 s at the default size (measured 2026-11-30 on a shared, busy 2-core machine). 95% intervals
at that size: Plackett–Luce ratings ±6 to ±9 Elo for greedy and the tips, ±17 Elo for
random."""),
        ("code", SETUP),
        ("code", """from hansa_lab import simulate
from hansa_lab import stats
from hansa_lab.stats import plots

LINEUPS = {3: ["greedy", "network_keys", "random"],
           4: ["greedy", "network_keys", "random", "blocker"],
           5: ["greedy", "network_keys", "random", "blocker", "actions_first"]}
runs = {n: simulate(lineup, n_games=study.pick(n, 3000), n_players=n, seed=2000, n_jobs=2,
                    progress=False, out=study.results_dir(f"score_breakdowns_{n}p"))
        for n, lineup in LINEUPS.items()}
players = pd.concat([stats.with_games(r.players, r.games) for r in runs.values()],
                    ignore_index=True)
events = pd.concat([r.events for r in runs.values()], ignore_index=True)
turns = pd.concat([r.turns for r in runs.values()], ignore_index=True)
players.groupby(["n_players", "strategy"])[["total", "track", "abilities", "markers",
                                              "special", "control", "network"]].mean().round(1)"""),
        ("md", """The total and every category on one points scale, per strategy (colours), one
panel per player count; the legend gives n and explains the marks."""),
        ("code", """plots.plot_score_breakdown(players, by="strategy", split="n_players",
                           save=study.results_dir("score_breakdowns") / "breakdown.png")"""),
        ("md", "What the average score is made of: mean points per category, stacked per strategy."),
        ("code", """plots.plot_score_composition(players, by="strategy", split="n_players",
                             save=study.results_dir("score_breakdowns") / "composition.png")"""),
        ("code", """plots.plot_ability_timing(events, players,
                          save=study.results_dir("score_breakdowns") / "abilities.png")"""),
        ("code", """plots.plot_trajectories(turns, players,
                        save=study.results_dir("score_breakdowns") / "trajectories.png")"""),
        ("md", "Ratings from the placements (Plackett–Luce); at the default size the 95% "
               "intervals (`elo_lo`, `elo_hi`) are within ±9 Elo for greedy and the tips "
               "and ±17 Elo for random."),
        ("code", """ratings = stats.plackett_luce(players, by="strategy", n_boot=study.pick(50, 1000))
display(plots.plot_ratings(ratings, save=study.results_dir("score_breakdowns") / "ratings.png"))
ratings"""),
    ],
    "05_inspect_a_game": [
        ("md", """# Inspect a game

Pick the biggest upset from a results table — the game where the winner was furthest
behind at mid-game on projected score — and open it on the interactive board.

**Size.** Default: the quickstart's batch of 10,000 games (the same run in
`results/quickstart`, played here if it is missing; `HANSA_LAB_SIZE=small`: 8). The whole
notebook ran in 1 min 7 s at the default size with that run played from scratch (measured 2026-11-30 on a shared, busy 2-core machine);
14 s once the quickstart has run. No intervals: it picks one game."""),
        ("code", SETUP),
        ("code", """from hansa_lab import simulate

res = simulate(["greedy", "random", "random", "random"], n_games=study.pick(8, 10000),
               n_players=4, seed=100, n_jobs=2, progress=False,
               out=study.results_dir("quickstart"))
turns, players = res.turns, res.players
mid = turns[turns.turn == turns.groupby("game_id").turn.transform(lambda t: t.max() // 2)]
behind = (mid.groupby("game_id").projected.transform("max") - mid.projected)
mid = mid.assign(behind=behind)
winners = players[players["rank"] == 1][["game_id", "seat"]]
upsets = mid.merge(winners, on=["game_id", "seat"]).sort_values("behind", ascending=False)
game_id = int(upsets.iloc[0].game_id)
upsets.head()[["game_id", "seat", "projected", "behind"]]"""),
        ("code", """from hansa_lab import GameViewer

viewer = GameViewer.from_results(res, game_id)
viewer"""),
        ("md", """The final position as a picture (it also shows in an HTML export of this notebook,
where the interactive viewer above cannot run)."""),
        ("code", "viewer.timeline.final"),
        ("code", """path = viewer.export_html(study.results_dir("inspect") / f"game_{game_id}.html")
print("offline replay written to", path)"""),
    ],
    "06_rule_knobs": [
        ("md", """# Rule knobs

Do the East-West awards and the starting supply change seat balance? A sweep of rule
variants (`experiments/rule_knobs.toml`; every option is in `docs/rule_options.md`),
played at 3 and 4 players on the same deals as the printed game, so each variant is
compared with it deal by deal. First with a greedy table, then with the strongest shipped
player (`strong`) in every seat, to see whether the conclusions hold among better players.

**Size.** Default: 400 games per variant and player count with greedy players (3,200
games), 12 per variant and player count with `strong` players (96 games).
`HANSA_LAB_SIZE=small`: 8 greedy games and 2 strong games per variant and player count (2
deals per comparison), the strong players with the smallest search budget
(`strong:candidates=1,horizon=1`: the search path runs, but with one candidate it plays
like the planner): the whole notebook ran in 55 s at that size (`pytest
tests/test_notebooks.py -k 06`, 2026-12-01, shared busy machine). Full size, measured
2026-12-01 at one worker on the shared machine (load 7–13): the greedy sweep took 126 s of
CPU (`hansa-lab run experiments/rule_knobs.toml --games 400 --jobs 1`: 11 min wall); the
first 20 of the strong check's 96 games (all 3-player) took at most 4.4 min of CPU (up to
13 s a game; the run was stopped after them); 4-player games cost more, so all 96 need
roughly 20 min of CPU, and the whole notebook at full size roughly 11–12 minutes on 2
idle cores (a rough estimate from those two measurements, not timed as one run). 95%
intervals: the greedy sweep's first-seat win-share changes about ±5 percentage points; the
`strong` check is a small sample whose intervals the tables show."""),
        ("code", SETUP),
        ("code", """from hansa_lab import run_experiment
from hansa_lab.sim.experiment import load_experiment

spec = load_experiment("../experiments/rule_knobs.toml")
greedy = run_experiment(spec, games=study.pick(8, 400), out=study.results_dir("rule_knobs"),
                        n_jobs=2, progress=False, force=True)
changes = greedy.variants()
changes"""),
        ("md", """## Verdicts (greedy table)

Each variant against the printed game: raises / lowers / no clear change (with the change
this run would have detected), too few games to tell, or — when every paired game ended
exactly as under the printed rules — "this rule never came into play in these games"
(greedy players rarely connect the East-West cities, so an East-West award may never be
paid). Holm-adjusted over the variants of each measure."""),
        ("code", """for r in changes.itertuples():
    print(f"{r.n_players}p {r.variant:>12} {r.measure:>15}: {r.text}")"""),
        ("md", "## The balance objective per variant"),
        ("code", """balance = greedy.balance()
balance"""),
        ("code", """import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(7, 3.2))
for k, (n, part) in enumerate(balance.groupby("n_players")):
    y = [i + 0.2 * k for i in range(len(part))]
    ax.errorbar(part.first_seat_adv, y, xerr=[part.first_seat_adv - part.adv_lo,
                                              part.adv_hi - part.first_seat_adv],
                fmt="o", capsize=3, label=f"{n} players")
    ax.set_yticks(range(len(part)), part.options)
ax.axvline(0, color="grey", lw=1, ls="--")
ax.set_xlabel("first seat's win share minus fair share (95% interval)")
ax.legend()
fig.tight_layout()
fig.savefig(study.results_dir("rule_knobs") / "first_seat.png")"""),
        ("code", "greedy.most_balanced(rounds=(20, 45))"),
        ("md", """## The same sweep with the strongest player

`strong` in every seat (a search player: see the README). A small sample: it checks
whether a variant's direction holds among stronger players, not its size."""),
        ("code", """strong_player = study.pick("strong:candidates=1,horizon=1", "strong")
strong_spec = {**spec, "name": "rule_knobs_strong", "arms": {"strong": [strong_player]}}
strong = run_experiment(strong_spec, games=study.pick(2, 12),
                        out=study.results_dir("rule_knobs_strong"), n_jobs=2, progress=False,
                        force=True)
strong.balance()"""),
        ("code", """strong_changes = strong.variants()
for r in strong_changes.itertuples():
    print(f"{r.n_players}p {r.variant:>12} {r.measure:>15}: {r.text}")"""),
    ],
    "07_learning_agent": [
        ("md", """# A learning agent against greedy

A smoke test of the whole path for learning agents (`docs/guides/learning_agents.md`): the
Gymnasium wrapper `SingleAgentEnv` seats one learner among two `greedy` players (played in
the compiled core), the learner sees the observation vector and the legal-action mask, and
a small model learns from its games. **Not a strength claim**: a linear model trained for a
few minutes does not beat `greedy`; the point is that observations, masks, rewards and
resets work end to end and that the learning curve moves.

The agent values *afterstates*: for each legal action, the observation right after it
(`env.afterstates()`), scored by a linear model (scikit-learn's `SGDRegressor` on
observations standardised once on the random policy's games), ε-greedy. Against `greedy` the rank reward is almost always 0 at
first, so the model learns to predict the learner's own final score (a denser signal, Monte
Carlo targets); the environment's reward is reported beside it.

**Size.** Default: 150 training games, then 20 evaluation games on seeds never used for
training, beside 20 games of the uniform random policy (`HANSA_LAB_SIZE=small`: 3, 1 and 1).
At the default size this should take a few minutes: a game costs well under a second of
CPU, but on the shared machine it was written on (load average 12 on 2 cores) a game took
2–9 s of wall time, so there the default size takes 10–25 minutes (an estimate from those
speeds, not a timed run). In a 120-game trial run there, the learner's mean final score rose
from 1.0 (random policy) to about 2 after 40 games; `greedy` scores far more."""),
        ("code", SETUP),
        ("code", """import numpy as np
from sklearn.linear_model import SGDRegressor
from sklearn.preprocessing import StandardScaler
from hansa_lab.env import SingleAgentEnv

env = SingleAgentEnv(opponents=("greedy", "greedy"), seat=None)  # the seat is drawn per game
rng = np.random.default_rng(0)
model = SGDRegressor(learning_rate="constant", eta0=1e-4, alpha=1e-4, average=True,
                     random_state=0)
scaler = StandardScaler()
print(env.observation_space["observation"].shape, env.action_space)"""),
        ("code", """def play(seed, choose):
    \"\"\"One game from reset(seed): the learner's chosen afterstates, all the afterstates
    it saw, and the final info.\"\"\"
    obs, info = env.reset(seed=seed)
    chosen, seen = [], []
    while True:
        actions, after = env.afterstates()
        k = choose(after)
        chosen.append(after[k])
        seen.append(after)
        obs, reward, terminated, truncated, info = env.step(actions[k])
        if terminated or truncated:
            return np.array(chosen), np.concatenate(seen), {
                "seed": seed, "reward": reward, "rank": info["rank"], "score": info["total"]}

def uniform(after):
    return int(rng.integers(len(after)))

fitted = False

def learner(epsilon):
    def choose(after):
        if not fitted or rng.random() < epsilon:
            return uniform(after)
        return int(np.argmax(model.predict(scaler.transform(after))))
    return choose

games = [play(10_000 + i, uniform) for i in range(study.pick(1, 20))]
for _, seen, _ in games:
    scaler.partial_fit(seen)  # the standardisation is fixed from here on
baseline = pd.DataFrame([result for _, _, result in games])
baseline.describe().loc[["mean", "std"], ["reward", "rank", "score"]]"""),
        ("md", "## Training\nEach game's chosen afterstates are fitted to the learner's final score (divided by 10)."),
        ("code", """curve = []
for episode in range(study.pick(3, 150)):
    X, _, result = play(episode, learner(epsilon=0.1))
    model.partial_fit(scaler.transform(X), np.full(len(X), result["score"] / 10))
    fitted = True
    curve.append({"episode": episode, **result})
curve = pd.DataFrame(curve)
curve.tail()"""),
        ("code", """import matplotlib.pyplot as plt

window = max(1, len(curve) // 10)
fig, ax = plt.subplots(figsize=(7, 3.2))
ax.plot(curve.episode, curve.score, ".", alpha=0.4, label="final score per game")
ax.plot(curve.episode, curve.score.rolling(window, min_periods=1).mean(),
        label=f"rolling mean ({window} games)")
ax.axhline(baseline.score.mean(), color="grey", ls="--", label="uniform random policy")
ax.set_xlabel("training game")
ax.set_ylabel("learner's final score")
ax.set_title("Afterstate-value learner against two greedy players")
ax.legend()
fig.tight_layout()
fig.savefig(study.results_dir("learning_agent") / "learning_curve.png")"""),
        ("md", "## Evaluation on fresh seeds\nThe trained model without exploration, on seeds never used for training, beside the random policy."),
        ("code", """evaluation = pd.DataFrame([play(20_000 + i, learner(epsilon=0.0))[2]
                           for i in range(study.pick(1, 20))])
pd.DataFrame({"random policy": baseline[["reward", "rank", "score"]].mean(),
              "trained learner": evaluation[["reward", "rank", "score"]].mean()})"""),
    ],
}


def main() -> None:
    for name, cells in NOTEBOOKS.items():
        nb = new_notebook()
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nb.cells = [new_markdown_cell(src) if kind == "md" else new_code_cell(src)
                    for kind, src in cells]
        path = ROOT / "notebooks" / f"{name}.ipynb"
        nbformat.write(nb, path)
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
