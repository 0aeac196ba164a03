"""Golden playthroughs and perft counts: conformance data as text.

A golden playthrough lists, for every step of a game, the board summary, who decides,
every legal action, the chosen action and the projected scores. The file is its own
record: the tests read the ``chosen:`` actions back and replay them in the Python engine
and in the compiled core, each of which must write the file again line for line, so a
change to a strategy never rewrites a golden. The perft file (``tests/data/perft.txt``)
holds saved positions as text (:mod:`hansa_lab.engine.position`) with the number of
action sequences 1, 2 and 3 plies deep from each, counted by both engines.
Both are regenerated only by ``scripts/make_goldens.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from hansa_lab.compiled.bridge import CoreGame
from hansa_lab.engine.actions import Action, format_action, parse_action
from hansa_lab.engine.board import Board
from hansa_lab.engine.rules import apply, legal_actions
from hansa_lab.engine.scoring import final_scores
from hansa_lab.engine.state import GameConfig, State, new_game
from hansa_lab.engine.text import board_lines, summary_line
from hansa_lab.play import REFERENCE_ENGINE, engine_named, per_engine, play_game

_EMPEROR = (("emperor", True),)
_ALTERNATIVE = (("east_alternative", True),)
#: every numeric rule option away from its printed value on the base board (the Emperor's
#: Favour on, so that its bonuses count); tests/test_golden_coverage.py checks that each
#: rule option is off its default in some golden game
_TUNED = (("special_points", (5, 6, 10, 12)), ("start_supply_seats", (4, 6, 8)),
          ("prestige_to_end", 16), ("emperor", True), ("east_west_points", (8, 5, 3, 1)),
          ("control_points", 3), ("favour_control_bonus", 3), ("ability_points", 5),
          ("favour_abilities_bonus", 2), ("marker_points", (2, 3, 5, 6, 8, 10)),
          ("cities_to_end", 8), ("actions_track", (2, 3, 4, 4, 5, 6)),
          ("bank_track", (3, 6, 8, "all")), ("book_track", (2, 3, 5, 6)),
          ("keys_track", (1, 2, 3, 3, 4)), ("start_merchants", 0),
          ("marker_set", {"extra": 3, "swap": 3, "move3": 2, "remove3": 1, "develop": 2,
                          "plus3": 2, "plus4": 2}), ("start_markers", 2))
#: the options only Britannia (its regions) or a plain staircase supply use
_TUNED_BRITANNIA = (("region_points", (9, 5, 2, 1)), ("start_supply", 4))

#: The seeds of the other boards and variants were picked so that each game uses the
#: board's special rules (permanent markers, permissions, neutral routes, favours). The
#: strategies made the games once; the files record the actions.
GOLDEN_GAMES: list[tuple[str, GameConfig, list[str]]] = [
    ("base3p_bigbox_seed11", GameConfig(3, "base", "bigbox", 11), ["random"] * 3),
    ("base4p_original_seed12", GameConfig(4, "base", "original", 12), ["random"] * 4),
    ("base5p_bigbox_seed13", GameConfig(5, "base", "bigbox", 13), ["random"] * 5),
    ("east4_bigbox_seed47", GameConfig(4, "east", "bigbox", 47), ["random"] * 4),
    ("britannia3_bigbox_seed98", GameConfig(3, "britannia", "bigbox", 98), ["random"] * 3),
    ("britannia5_original_seed20", GameConfig(5, "britannia", "original", 20), ["random"] * 5),
    ("two_players_bigbox_seed21", GameConfig(2, "base", "bigbox", 21), ["random"] * 2),
    ("emperor4_bigbox_seed125", GameConfig(4, "base", "bigbox", 125, _EMPEROR), ["random"] * 4),
    ("east4_alternative_original_seed13",
     GameConfig(4, "east", "original", 13, _ALTERNATIVE), ["random"] * 4),
    ("tuned3_bigbox_seed4", GameConfig(3, "base", "bigbox", 4, _TUNED), ["random"] * 3),
    ("tuned_britannia4_original_seed6",
     GameConfig(4, "britannia", "original", 6, _TUNED_BRITANNIA), ["random"] * 4),
    ("control_prestige3_bigbox_seed7",
     GameConfig(3, "base", "bigbox", 7, (("control_prestige", 3),)), ["random"] * 3),
]

BOARD_EVERY = 10  # full board picture every this many steps
CHOSEN = "  chosen: "


def header(config: GameConfig, strategies: list[str]) -> str:
    return f"# golden playthrough: {config!r} strategies={strategies}"


def played_actions(config: GameConfig, strategies: list[str]) -> list[Action]:
    """The actions of a new golden game (played once by ``strategies``)."""
    return play_game(config, strategies).actions


def recorded_actions(board: Board, lines: list[str]) -> list[Action]:
    """The ``chosen:`` actions of a golden file, in order."""
    return [parse_action(board, line[len(CHOSEN):]) for line in lines
            if line.startswith(CHOSEN)]


@dataclass(frozen=True)
class _Step:
    """What a golden file shows of one position, from either engine."""

    state: State
    legal: list[Action]
    projected: list[int]


def _python_steps(config: GameConfig, actions: list[Action]) -> Iterator[_Step]:
    state = new_game(config)
    for action in [*actions, None]:
        yield _Step(state, legal_actions(state), final_scores(state))
        if action is not None:
            state = apply(state, action)


def _core_steps(config: GameConfig, actions: list[Action]) -> Iterator[_Step]:
    game = CoreGame(config)
    for action in [*actions, None]:
        projected = [sum(row) for row in game.score_rows()]
        yield _Step(game.to_state(), game.legal_actions(), projected)
        if action is not None:
            game.apply(action)


#: how each engine replays a golden game step by step
_STEPS = per_engine({"python": _python_steps, "core": _core_steps}, "golden replays")


def golden_lines(config: GameConfig, strategies: list[str], actions: list[Action],
                 engine: str = REFERENCE_ENGINE) -> list[str]:
    """The golden file of the game ``actions`` make, replayed by ``engine``
    (:data:`hansa_lab.play.ENGINES`); ``strategies`` only name who first played it, in
    the header."""
    steps = _STEPS[engine_named(engine).name](config, actions)
    lines = [header(config, strategies)]
    for n, step in enumerate(steps):
        if n == len(actions):
            return [*lines, *_end_lines(step, n)]
        lines.extend(_step_lines(n, step))
        lines.append(CHOSEN + format_action(step.state.board, actions[n]))
    raise AssertionError("unreachable: the replay yields one step per action and the end")


def _end_lines(step: _Step, n: int) -> list[str]:
    s = step.state
    return [f"end: {s.end_reason or 'cap'} after {n} actions",
            *("  " + line for line in board_lines(s)),
            f"  final scores {step.projected}"]


def _step_lines(n: int, step: _Step) -> list[str]:
    s = step.state
    out = [f"step {n}: {summary_line(s)} | projected {step.projected}"]
    if n % BOARD_EVERY == 0:
        out.extend("  " + line for line in board_lines(s))
    texts = [format_action(s.board, a) for a in step.legal]
    out.append(f"  legal {len(texts)}: " + "; ".join(texts))
    return out


# --------------------------------------------------------------------------- perft
@dataclass(frozen=True)
class PerftPosition:
    """A saved position (its text) and its perft counts at depths 1, 2, 3."""

    name: str
    counts: tuple[int, ...]
    text: str

    def line(self) -> str:
        return f"{self.name} {','.join(map(str, self.counts))} {self.text}"


def read_perft_file(text: str) -> list[PerftPosition]:
    """The positions of a perft file: ``name counts position`` per line (``#`` comments);
    ValueError naming the line for a malformed one."""
    out = []
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split(" ", 2)
        try:
            counts = tuple(int(c) for c in parts[1].split(","))
            out.append(PerftPosition(parts[0], counts, parts[2]))
        except (IndexError, ValueError):
            raise ValueError(f"perft file line {i}: expected 'name d1,d2,d3 position', got "
                             f"{line[:60]!r}") from None
    return out
