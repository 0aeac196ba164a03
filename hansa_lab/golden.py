"""Golden playthroughs and legal-action counts ("perft"): conformance data as text.

A golden playthrough lists, for every step of a seeded game, the board summary, who
decides, every legal action, the chosen action and the projected scores. Legal-action
counts record how many actions (by kind, and two plies deep) fixed positions have.
Both are regenerated only by ``scripts/make_goldens.py`` and compared by the tests.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hansa_lab.engine.actions import format_action
from hansa_lab.engine.rules import apply, legal_actions
from hansa_lab.engine.scoring import final_scores
from hansa_lab.engine.state import GameConfig, State, new_game
from hansa_lab.engine.text import board_lines, summary_line
from hansa_lab.play import play_game

_EMPEROR = (("emperor", True),)
_ALTERNATIVE = (("east_alternative", True),)

#: The seeds of the other boards and variants were picked so that each game uses the
#: board's special rules (permanent markers, permissions, neutral routes, favours).
GOLDEN_GAMES: list[tuple[str, GameConfig, list[str]]] = [
    ("base3p_bigbox_seed11", GameConfig(3, "base", "bigbox", 11), ["random"] * 3),
    ("base4p_original_seed12", GameConfig(4, "base", "original", 12), ["random"] * 4),
    ("base5p_bigbox_seed13", GameConfig(5, "base", "bigbox", 13), ["random"] * 5),
    ("east4_bigbox_seed47", GameConfig(4, "east", "bigbox", 47), ["random"] * 4),
    ("britannia3_bigbox_seed98", GameConfig(3, "britannia", "bigbox", 98), ["random"] * 3),
    ("britannia5_original_seed20", GameConfig(5, "britannia", "original", 20), ["random"] * 5),
    ("two_players_bigbox_seed21", GameConfig(2, "base", "bigbox", 21), ["random"] * 2),
    ("emperor4_bigbox_seed125", GameConfig(4, "base", "bigbox", 125, _EMPEROR), ["random"] * 4),
]

#: (name, configuration, number of random-policy actions played before counting)
LEGAL_COUNT_POSITIONS: list[tuple[str, GameConfig, int]] = [
    ("base3p_start", GameConfig(3, "base", "bigbox", 1), 0),
    ("base3p_after40", GameConfig(3, "base", "bigbox", 1), 40),
    ("base3p_after150", GameConfig(3, "base", "bigbox", 2), 150),
    ("base4p_after120_original", GameConfig(4, "base", "original", 3), 120),
    ("base5p_after200", GameConfig(5, "base", "bigbox", 4), 200),
    ("base5p_after400", GameConfig(5, "base", "bigbox", 5), 400),
    ("east3_start", GameConfig(3, "east", "bigbox", 1), 0),
    ("east4_alternative_after150", GameConfig(4, "east", "original", 2, _ALTERNATIVE), 150),
    ("east4_permanent_marker", GameConfig(4, "east", "bigbox", 47), 159),
    ("britannia3_start", GameConfig(3, "britannia", "bigbox", 1), 0),
    ("britannia3_permanent_marker", GameConfig(3, "britannia", "bigbox", 98), 238),
    ("britannia4_after200", GameConfig(4, "britannia", "bigbox", 3), 200),
    ("britannia5_original_permanent_marker", GameConfig(5, "britannia", "original", 20), 363),
    ("two_players_start", GameConfig(2, "base", "bigbox", 1), 0),
    ("two_players_neutral_relocation", GameConfig(2, "base", "bigbox", 21), 2),
    ("two_players_after300", GameConfig(2, "base", "original", 4), 300),
    ("emperor4_income_share", GameConfig(4, "base", "bigbox", 125, _EMPEROR), 162),
    ("emperor3_after200", GameConfig(3, "base", "bigbox", 6, _EMPEROR), 200),
]

BOARD_EVERY = 10  # full board picture every this many steps


def golden_lines(config: GameConfig, strategies: list[str]) -> list[str]:
    rec = play_game(config, strategies)
    lines = [f"# golden playthrough: {config!r} strategies={strategies}"]
    state = new_game(config)
    for n, action in enumerate(rec.actions):
        lines.extend(_step_lines(n, state))
        lines.append(f"  chosen: {format_action(state.board, action)}")
        state = apply(state, action)
    lines.append(f"end: {state.end_reason or 'cap'} after {len(rec.actions)} actions")
    lines.extend("  " + line for line in board_lines(state))
    lines.append(f"  final scores {final_scores(state)}")
    return lines


def _step_lines(n: int, state: State) -> list[str]:
    legal = legal_actions(state)
    out = [f"step {n}: {summary_line(state)} | projected {final_scores(state)}"]
    if n % BOARD_EVERY == 0:
        out.extend("  " + line for line in board_lines(state))
    texts = [format_action(state.board, a) for a in legal]
    out.append(f"  legal {len(texts)}: " + "; ".join(texts))
    return out


def position(config: GameConfig, n_actions: int) -> State:
    """The state after ``n_actions`` actions of a seeded random-policy game."""
    rec = play_game(config, ["random"] * config.n_players, max_actions=n_actions)
    state = new_game(config)
    for a in rec.actions:
        state = apply(state, a)
    return state


def legal_counts(config: GameConfig, n_actions: int) -> dict[str, Any]:
    """Legal actions at a fixed position: total, by kind, and summed two plies deep."""
    state = position(config, n_actions)
    legal = legal_actions(state)
    depth2 = sum(len(legal_actions(apply(state, a))) for a in legal)
    return {
        "n_actions_played": n_actions,
        "total": len(legal),
        "by_kind": dict(sorted(Counter(a.kind for a in legal).items())),
        "depth2": depth2,
    }
