"""A played game as a timeline of positions, for viewers and exported replays.

:class:`Timeline` holds every state of a game (position ``i`` is the state after ``i``
actions) with what the viewers show beside the board: who did each action, its text and
events, the turn structure, every player's track score and projected final score, and a
score chart. It is pure (no widgets): :class:`hansa_lab.viz.viewer.GameViewer` and
:mod:`hansa_lab.viz.export` are built on it.

>>> from hansa_lab.engine.state import GameConfig
>>> tl = Timeline.from_seed(GameConfig(n_players=3, seed=2), ["random"])
>>> tl.n_positions == len(tl.actions) + 1, tl.position_of_turn(0)
(True, 0)
>>> tl.states[tl.position_of_turn(1)].turn
2
>>> "<svg" in tl.frame_svg(10) and 'class="cursor"' in tl.chart_svg(10)
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

import pandas as pd

from hansa_lab.engine.actions import Action, format_action
from hansa_lab.engine.board import ABILITIES
from hansa_lab.engine.events import event_text
from hansa_lab.engine.narrate import describe_action
from hansa_lab.engine.scoring import KontorCache, ranking, score_rows
from hansa_lab.engine.state import GameConfig, State
from hansa_lab.play import DEFAULT_ENGINE, GameRecord, play_game, play_on, states_of
from hansa_lab.strategies import Strategy
from hansa_lab.strategies.lineup import parse_lineup
from hansa_lab.viz.render import PLAYER_COLOURS, render_parts, render_side_svgs, render_svg


def compare_outcomes(real: State, what_if: State, real_lineup: Sequence[str],
                     what_if_lineup: Sequence[str]) -> pd.DataFrame:
    """Final scores and ranks per seat: what really happened vs a what-if continuation.

    Columns: ``seat, real_strategy, real_score, real_rank, what_if_strategy,
    what_if_score, what_if_rank, score_change``."""
    rs = [sum(r) for r in score_rows(real)]
    ws = [sum(r) for r in score_rows(what_if)]
    rr, wr = ranking(real), ranking(what_if)
    return pd.DataFrame({
        "seat": list(range(real.n_players)),
        "real_strategy": list(real_lineup),
        "real_score": rs,
        "real_rank": rr,
        "what_if_strategy": list(what_if_lineup),
        "what_if_score": ws,
        "what_if_rank": wr,
        "score_change": [w - r for r, w in zip(rs, ws, strict=True)],
    })


@dataclass
class Timeline:
    """Every position of a game with its actions, events and scores (see module doc).

    Build with :meth:`from_seed` (play a configuration and line-up) or
    :meth:`from_actions` (a recorded game). Position ``i`` is ``states[i]``, the state
    after ``i`` actions; ``actions[i - 1]`` led to it, played by ``actor[i - 1]``."""

    config: GameConfig
    actions: list[Action]
    strategies: list[str]
    states: list[State] = field(repr=False)
    actor: list[int] = field(repr=False)
    texts: list[str] = field(repr=False)  # per action: in plain words (describe_action)
    events: list[list[str]] = field(repr=False)  # per action: its events as text
    prestige: list[list[int]] = field(repr=False)  # per position, per seat
    projected: list[list[int]] = field(repr=False)  # per position, per seat
    turn_starts: list[int] = field(repr=False)  # position where each turn starts
    codes: list[str] = field(repr=False, default_factory=list)  # per action: format_action

    # ------------------------------------------------------------------ building
    @classmethod
    def from_actions(cls, config: GameConfig, actions: Sequence[Action],
                     strategies: Sequence[str] | None = None) -> Timeline:
        """The timeline of a recorded game (its configuration and actions)."""
        acts = list(actions)
        states = states_of(config, acts)
        names = list(strategies) if strategies is not None else [""] * config.n_players
        cache = KontorCache()
        prestige, projected = [], []
        for s in states:
            prestige.append(list(s.prestige))
            projected.append([sum(r) for r in score_rows(s, cache)])
        board = states[0].board
        actor = [states[i].current_player for i in range(len(acts))]
        texts = [describe_action(board, a, actor[i], states[i]) for i, a in enumerate(acts)]
        codes = [format_action(board, a) for a in acts]
        events = [[event_text(board, ev, states[i + 1].neutral) for ev in states[i + 1].events]
                  for i in range(len(acts))]
        turn_starts = [0] + [i for i in range(1, len(states))
                             if states[i].turn != states[i - 1].turn]
        return cls(config, acts, names, states, actor, texts, events, prestige, projected,
                   turn_starts, codes)

    @classmethod
    def from_record(cls, record: GameRecord) -> Timeline:
        return cls.from_actions(record.config, record.actions, record.strategies)

    @classmethod
    def from_seed(cls, config: GameConfig, strategies: str | Sequence[str | Strategy],
                  ) -> Timeline:
        """Play the game of ``config`` (its seed) with a line-up and keep every position.

        ``strategies``: one per seat, or one for all, or a comma-separated line-up."""
        return cls.from_record(play_game(config, parse_lineup(strategies, config.n_players),
                                         engine=DEFAULT_ENGINE))

    # ------------------------------------------------------------------ navigation
    @property
    def n_positions(self) -> int:
        return len(self.states)

    @property
    def final(self) -> State:
        return self.states[-1]

    @property
    def n_turns(self) -> int:
        """Turns played (the last one possibly cut short by the end of the game)."""
        return len(self.turn_starts) if self.final.is_over else len(self.turn_starts) - 1

    def position_of_turn(self, t: int) -> int:
        """Position at the end of turn ``t`` (0: the set-up; the last turn: the end)."""
        if t <= 0:
            return 0
        return self.turn_starts[t] if t < len(self.turn_starts) else self.n_positions - 1

    def turns_done(self, i: int) -> int:
        """Turns completed at position ``i`` (inverse of :meth:`position_of_turn`)."""
        s = self.states[i]
        return s.turn if s.is_over else s.turn - 1

    def turn_x(self, i: int) -> float:
        """Position ``i`` on a turn axis: ``t`` at the end of turn ``t``, fractional
        within a turn."""
        s = self.states[i]
        if s.is_over:
            return float(s.turn)
        t = s.turn
        start = self.turn_starts[t - 1]
        end = self.turn_starts[t] if t < len(self.turn_starts) else self.n_positions - 1
        frac = (i - start) / (end - start) if end > start else 0.0
        return t - 1 + frac

    # ------------------------------------------------------------------ views
    def caption(self, i: int) -> str:
        """What led to position ``i`` (for the status bar)."""
        if i == 0:
            return "set-up"
        text = f"action {i}/{len(self.actions)}: {self.texts[i - 1]}"
        if i == self.n_positions - 1 and self.final.is_over:
            text += " · game over"
        return text

    def frame_svg(self, i: int, *, highlight_player: int | None = None,
                  width: int | None = None) -> str:
        """The board at position ``i``, with the action that led to it highlighted."""
        return render_svg(self.states[i],
                          highlight_action=self.actions[i - 1] if i > 0 else None,
                          highlight_player=highlight_player, width=width,
                          player_names=self.strategies, caption=self.caption(i))

    def frame_parts(self, i: int) -> list[str]:
        """The replay's frame at position ``i`` in pieces: the board without its legend
        (:func:`hansa_lab.viz.render.render_parts`), then the player column as separate
        pictures (:func:`~hansa_lab.viz.render.render_side_svgs`) that a page wraps by
        its width."""
        state = self.states[i]
        board = render_parts(state, highlight_action=self.actions[i - 1] if i > 0 else None,
                             player_names=self.strategies, caption=self.caption(i),
                             side=False, legend=False)
        return board + render_side_svgs(state, player_names=self.strategies)

    def log_entries(self, i: int, n: int = 12) -> list[dict[str, Any]]:
        """The last ``n`` actions up to position ``i``: index, turn, seat, text (plain
        words), code (:func:`~hansa_lab.engine.actions.format_action`), events."""
        out = []
        for k in range(max(0, i - n), i):
            out.append({"index": k + 1, "turn": self.states[k].turn, "seat": self.actor[k],
                        "text": self.texts[k], "code": self.codes[k] if self.codes else "",
                        "events": self.events[k]})
        return out

    def log_html(self, i: int, n: int = 40, *, height: int = 290) -> str:
        """:meth:`log_entries` as an HTML list, oldest first, the action that led to
        position ``i`` last, bold and shaded (``.log-entry.current``). The list is its
        own scroll box ``height`` pixels high that starts scrolled to its end (CSS
        ``column-reverse``, no script needed), so the current action is always in view."""
        rows = []
        entries = self.log_entries(i, n)
        for k, e in enumerate(entries):
            colour = PLAYER_COLOURS[e["seat"] % len(PLAYER_COLOURS)]
            current = k == len(entries) - 1
            style = ("font-weight:bold;background:#fdf1c7;border-left:3px solid #b03a00;"
                     "padding-left:3px" if current else "padding-left:6px")
            ev = "".join(f'<div class="log-event" style="margin-left:1.6em;color:#555;'
                         f'font-weight:normal">· {escape(t)}</div>' for t in e["events"])
            rows.append(
                f'<div class="log-entry{" current" if current else ""}" '
                f'data-index="{e["index"]}" title="{escape(e["code"])}" style="{style}">'
                f'<span style="display:inline-block;width:0.8em;height:0.8em;'
                f'background:{colour};margin-right:0.4em"></span>'
                f'#{e["index"]} · turn {e["turn"]} · {escape(e["text"])}{ev}</div>')
        if not rows:
            rows.append('<div class="log-entry">Set-up: no actions yet</div>')
        return (f'<div class="hansa-log" style="font-family:DejaVu Sans,Verdana,sans-serif;'
                f'font-size:12px;line-height:1.35;max-height:{height}px;overflow-y:auto;'
                f'display:flex;flex-direction:column-reverse"><div>' + "".join(rows)
                + "</div></div>")

    def chart_svg(self, i: int | None = None, *, width: int = 560, height: int = 260) -> str:
        """Every player's track score (dashed) and projected final score (solid) at the
        end of each turn, with a cursor (``line.cursor``) and dots at position ``i``."""
        return score_chart_svg(self, i, width=width, height=height)

    def chart_x(self, i: int, *, width: int = 560) -> float:
        """x pixel of position ``i`` on :meth:`chart_svg` (where its cursor goes)."""
        left, _, plot_w, _ = _chart_box(width, 260)
        return left + plot_w * self.turn_x(i) / max(1, self.n_turns)

    def chart_y(self, value: float, *, height: int = 260) -> float:
        """y pixel of a score on :meth:`chart_svg`."""
        _, top, _, plot_h = _chart_box(560, height)
        return top + plot_h * (1 - value / _chart_y_max(self))

    def summary(self) -> dict[str, Any]:
        """Configuration, line-up, end and final scores (JSON-friendly)."""
        s = self.final
        return {
            "board": s.board.name, "n_players": s.n_players, "edition": self.config.edition,
            "seed": self.config.seed, "options": dict(self.config.options),
            "strategies": self.strategies, "end_reason": s.end_reason or "cap",
            "actions": len(self.actions), "turns": s.turn,
            "scores": self.projected[-1], "levels": {a: [lv[k] for lv in s.levels]
                                                     for k, a in enumerate(ABILITIES)},
        }

    # ------------------------------------------------------------------ what-if
    def what_if(self, i: int, strategies: str | Sequence[str], seed: int | None = None,
                ) -> tuple[GameRecord, pd.DataFrame]:
        """Play on from position ``i`` with another line-up; returns the continuation and
        a table comparing its final scores with the real game's (:func:`compare_outcomes`).
        ``seed`` seeds the strategies' random streams (default: the game's seed)."""
        lineup = parse_lineup(strategies, self.config.n_players)
        rec = play_on(self.states[i], lineup, seed, engine=DEFAULT_ENGINE)
        table = compare_outcomes(self.final, rec.final, self.strategies, rec.strategies)
        return rec, table


# ---------------------------------------------------------------------- score chart
def _chart_box(width: int, height: int) -> tuple[float, float, float, float]:
    left, top, right, bottom = 38.0, 26.0, 12.0, 30.0
    return left, top, width - left - right, height - top - bottom


def _chart_y_max(tl: Timeline) -> int:
    """The top of the chart's score axis (a multiple of 10)."""
    cached: int | None = tl.__dict__.get("_y_max")
    if cached is None:
        top_value = max(10, *(max(row) for row in tl.projected),
                        *(max(r) for r in tl.prestige))
        cached = tl.__dict__["_y_max"] = ((top_value + 9) // 10) * 10
    return cached


def score_chart_svg(tl: Timeline, i: int | None = None, *, width: int = 560,
                    height: int = 260) -> str:
    """The score chart of :meth:`Timeline.chart_svg` (deterministic SVG text)."""
    n = tl.config.n_players
    turns = max(1, tl.n_turns)
    ends = [tl.position_of_turn(t) for t in range(turns + 1)]
    y_max = _chart_y_max(tl)
    left, top, pw, ph = _chart_box(width, height)

    def sx(x: float) -> str:
        return f"{left + pw * x / turns:.1f}"

    def sy(v: float) -> str:
        return f"{top + ph * (1 - v / y_max):.1f}"

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="hansa-chart" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}" '
           f'font-family="DejaVu Sans, Verdana, sans-serif" font-size="10">'
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>']
    for v in range(0, y_max + 1, 10):
        out.append(f'<line x1="{left}" x2="{left + pw:.1f}" y1="{sy(v)}" y2="{sy(v)}" '
                   f'stroke="#e3e3e3"/><text x="{left - 5}" y="{float(sy(v)) + 3.5:.1f}" '
                   f'text-anchor="end" fill="#555555">{v}</text>')
    step = max(1, round(turns / 8 / 10) * 10) if turns > 40 else max(1, turns // 8)
    for t in range(0, turns + 1, step):
        out.append(f'<text x="{sx(t)}" y="{top + ph + 14:.1f}" text-anchor="middle" '
                   f'fill="#555555">{t}</text>')
    out.append(f'<text x="{left + pw / 2:.1f}" y="{height - 3}" text-anchor="middle" '
               f'fill="#333333">turn</text>'
               f'<line x1="{left}" x2="{left}" y1="{top}" y2="{top + ph:.1f}" stroke="#999999"/>'
               f'<line x1="{left}" x2="{left + pw:.1f}" y1="{top + ph:.1f}" '
               f'y2="{top + ph:.1f}" stroke="#999999"/>')
    for p in range(n):
        colour = PLAYER_COLOURS[p % len(PLAYER_COLOURS)]
        proj = " ".join(f"{sx(t)},{sy(tl.projected[e][p])}" for t, e in enumerate(ends))
        pres = " ".join(f"{sx(t)},{sy(tl.prestige[e][p])}" for t, e in enumerate(ends))
        out.append(f'<g class="series p{p}" data-player="{p}">'
                   f'<polyline class="projected" points="{proj}" fill="none" '
                   f'stroke="{colour}" stroke-width="2"/>'
                   f'<polyline class="track" points="{pres}" fill="none" stroke="{colour}" '
                   f'stroke-width="1.5" stroke-dasharray="4 3"/></g>')
    # legend
    lx = left + 6
    for p in range(n):
        colour = PLAYER_COLOURS[p % len(PLAYER_COLOURS)]
        name = tl.strategies[p] if p < len(tl.strategies) and tl.strategies[p] else ""
        label = f"seat {p}" + (f" {name}" if name else "")
        out.append(f'<rect x="{lx:.1f}" y="6" width="10" height="10" fill="{colour}"/>'
                   f'<text x="{lx + 13:.1f}" y="15" fill="#222222">{escape(label)}</text>')
        lx += 18 + 6.2 * len(label)
    out.append(f'<text x="{width - 12}" y="{top + 12:.1f}" text-anchor="end" '
               f'fill="#555555">solid: final score if the game ended now · '
               f"dashed: prestige track</text>")
    if i is not None:
        x = left + pw * tl.turn_x(i) / turns
        out.append(f'<g class="cursor-group" data-position="{i}">'
                   f'<line class="cursor" x1="{x:.1f}" x2="{x:.1f}" y1="{top}" '
                   f'y2="{top + ph:.1f}" stroke="#222222" stroke-width="1.5"/>')
        for p in range(n):
            colour = PLAYER_COLOURS[p % len(PLAYER_COLOURS)]
            out.append(f'<circle class="now projected p{p}" cx="{x:.1f}" '
                       f'cy="{sy(tl.projected[i][p])}" r="4" fill="{colour}" '
                       f'stroke="#000000"/>'
                       f'<circle class="now track p{p}" cx="{x:.1f}" '
                       f'cy="{sy(tl.prestige[i][p])}" r="3" fill="#ffffff" '
                       f'stroke="{colour}" stroke-width="2"/>')
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def timeline_json(tl: Timeline) -> str:
    """The timeline's per-action data as JSON (texts, actors, events, scores)."""
    return json.dumps({"actions": tl.texts, "actor": tl.actor, "events": tl.events,
                       "prestige": tl.prestige, "projected": tl.projected,
                       "turn_starts": tl.turn_starts}, separators=(",", ":"))


__all__ = [
    "Timeline",
    "compare_outcomes",
    "score_chart_svg",
    "timeline_json",
]
