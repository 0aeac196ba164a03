"""Replays exported as one self-contained HTML file (works offline: no URL, no CDN).

The file holds every frame of the game (the board and panels after each action) and a
small inline script with a slider, play/pause, step and turn buttons, the action log and
the score chart with a moving cursor. Frames are stored compactly: the SVG of a frame is
cut into whole elements (:func:`hansa_lab.viz.render.render_parts`) and every distinct
element is stored once, each frame being a list of element numbers.

From Python::

    from hansa_lab.viz.export import export_replay
    from hansa_lab.engine.state import GameConfig
    export_replay("replay.html", GameConfig(n_players=4, seed=7), ["greedy", "random"])

From the command line::

    hansa-lab replay --players 4 --seed 7 --strategies greedy,random,random,random \\
        --html replay.html

>>> from hansa_lab.engine.state import GameConfig
>>> from hansa_lab.viz.timeline import Timeline
>>> html = replay_html(Timeline.from_seed(GameConfig(n_players=3, seed=1), ["random"]))
>>> html.startswith("<!DOCTYPE html>") and "http" not in html
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

from hansa_lab.engine.narrate import END_REASONS
from hansa_lab.engine.scoring import winners
from hansa_lab.engine.state import GameConfig
from hansa_lab.strategies import Strategy
from hansa_lab.viz.timeline import Timeline

_XMLNS = 'xmlns="http://www.w3.org/2000/svg" '
#: The board's height (CSS px) on the page, and in a window wide enough for two columns
#: of player panels beside it (as in the notebook viewer).
BOARD_HEIGHT = 660
WIDE_BOARD_HEIGHT = 800


def _inline(svg: str) -> str:
    """SVG text for inline use in HTML (no namespace URL needed there)."""
    return svg.replace(_XMLNS, "")


def _js_json(obj: Any) -> str:
    """JSON that is safe inside a <script> element."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def replay_data(tl: Timeline) -> dict[str, Any]:
    """The frames and per-action data of a replay, as embedded in the HTML file:
    ``parts`` (distinct SVG elements), ``first`` (the element numbers of the set-up's
    frame), ``changes`` (per further position, the pairs (slot, element number) that
    differ from the frame before; ``[-1, ...]`` is a whole frame),
    ``texts``/``actor``/``turn``/``events`` (per action), ``cursor`` (chart x per
    position), ``dots`` (per position, chart y of every player's projected and track
    score) and ``turn_ends`` (position at the end of every turn)."""
    index: dict[str, int] = {}
    parts: list[str] = []
    first: list[int] = []
    changes: list[list[int]] = []
    prev: list[int] = []
    for i in range(tl.n_positions):
        row = []
        for piece in tl.frame_parts(i):
            piece = _inline(piece)
            k = index.get(piece)
            if k is None:
                k = index[piece] = len(parts)
                parts.append(piece)
            row.append(k)
        if i == 0:
            first = row
        elif len(row) != len(prev):
            changes.append([-1, *row])  # a different structure: the whole frame
        else:
            changes.append([x for j, k in enumerate(row) if k != prev[j] for x in (j, k)])
        prev = row
    return {
        "parts": parts,
        "first": first,
        "changes": changes,
        "texts": tl.texts,
        "actor": tl.actor,
        "turn": [tl.states[k].turn for k in range(len(tl.actions))],
        "events": tl.events,
        "cursor": [round(tl.chart_x(i), 1) for i in range(tl.n_positions)],
        "dots": [[round(tl.chart_y(v), 1) for p in range(tl.config.n_players)
                  for v in (tl.projected[i][p], tl.prestige[i][p])]
                 for i in range(tl.n_positions)],
        "turn_ends": [tl.position_of_turn(t) for t in range(tl.n_turns + 1)],
    }


_CSS = """
body{font-family:DejaVu Sans,Verdana,Arial,sans-serif;margin:12px;background:#f7f3ea;color:#222}
h1{font-size:18px;margin:0 0 4px 0}
.summary{font-size:12.5px;margin-bottom:8px;color:#444}
.summary table{border-collapse:collapse;margin-top:4px}
.winner{font-size:15px;font-weight:bold;color:#3d3427;margin:2px 0 4px 0}
.summary td,.summary th{border:1px solid #ccc;padding:2px 8px;text-align:right}
#controls{display:flex;gap:6px;align-items:center;flex-wrap:wrap;margin:6px 0;
  position:sticky;top:0;background:#f7f3ea;padding:4px 0;z-index:1}
#controls button{font-size:13px;padding:3px 9px}
#slider{flex:1;min-width:260px}
#position{font-size:13px;min-width:15em}
#board{display:flex;flex-wrap:wrap;gap:6px 10px;align-items:flex-start;overflow-x:auto}
#board>svg.hansa-board{flex:0 1 %(fit)spx;min-width:%(readable)spx;height:auto;display:block}
@media (min-width:%(wide_page)spx){#board>svg.hansa-board{flex-basis:%(wide)spx}}
#board>svg.hansa-side{flex:0 0 auto;max-width:none!important}
#legend{margin-top:8px;font-size:13px}
#legend svg{max-width:none!important}
#lower{display:flex;gap:16px;flex-wrap:wrap;margin-top:8px}
#log{font-size:12px;line-height:1.35;max-height:270px;overflow:auto;min-width:300px;flex:1;
  background:#fff;border:1px solid #ccc;padding:6px}
#log .cur{font-weight:bold;background:#fdf1c7;border-left:3px solid #b03a00}
#log .ev{font-weight:normal}
#log .ev{margin-left:1.6em;color:#555}
.sw{display:inline-block;width:.8em;height:.8em;margin-right:.4em}
"""

_JS = """
(function(){
const D = JSON.parse(document.getElementById('replay-data').textContent);
const frames = [D.first];
for (const ch of D.changes) {
  let f;
  if (ch.length && ch[0] === -1) {
    f = ch.slice(1);
  } else {
    f = frames[frames.length - 1].slice();
    for (let j = 0; j < ch.length; j += 2) f[ch[j]] = ch[j + 1];
  }
  frames.push(f);
}
const N = frames.length - 1;
const COLOURS = %(colours)s;
const board = document.getElementById('board');
const slider = document.getElementById('slider');
const pos = document.getElementById('position');
const log = document.getElementById('log');
const cursor = document.querySelector('#chart line.cursor');
const playBtn = document.getElementById('play');
const dots = [];
for (let p = 0; p < D.dots[0].length / 2; p++) {
  dots.push(document.querySelector('#chart circle.now.projected.p' + p));
  dots.push(document.querySelector('#chart circle.now.track.p' + p));
}
let timer = null;
const ESC = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'};
function esc(s){ return s.replace(/[&<>"]/g, c => ESC[c]); }
function show(i){
  i = Math.max(0, Math.min(N, i|0));
  board.innerHTML = frames[i].map(k => D.parts[k]).join('');
  board.dataset.position = i;
  slider.value = i;
  let t = 0; while (t + 1 < D.turn_ends.length && D.turn_ends[t + 1] <= i) t++;
  pos.textContent = 'action ' + i + ' / ' + N + ' · turns done ' + t;
  if (cursor) {
    cursor.setAttribute('x1', D.cursor[i]);
    cursor.setAttribute('x2', D.cursor[i]);
  }
  dots.forEach((d, j) => {
    if (d) { d.setAttribute('cx', D.cursor[i]); d.setAttribute('cy', D.dots[i][j]); }
  });
  let html = '';
  for (let k = Math.max(0, i - 14); k < i; k++) {
    const c = COLOURS[D.actor[k] %% COLOURS.length];
    html += '<div class="' + (k === i - 1 ? 'cur' : '') + '">' +
      '<span class="sw" style="background:' + c + '"></span>#' + (k + 1) + ' · turn ' +
      D.turn[k] + ' · ' + esc(D.texts[k]) +
      D.events[k].map(e => '<div class="ev">· ' + esc(e) + '</div>').join('') + '</div>';
  }
  log.innerHTML = html || '<div>Set-up: no actions yet</div>';
  log.scrollTop = log.scrollHeight;  // the current action (last) in view
}
function stop(){
  if (timer) { clearInterval(timer); timer = null; }
  playBtn.textContent = '\\u25B6 play';
}
function play(){
  if (+slider.value >= N) show(0);
  const ms = +document.getElementById('speed').value;
  timer = setInterval(() => { const i = +slider.value + 1; show(i); if (i >= N) stop(); }, ms);
  playBtn.textContent = '|| pause';
}
playBtn.addEventListener('click', () => timer ? stop() : play());
document.getElementById('speed').addEventListener('change', () => {
  if (timer) { stop(); play(); }
});
slider.addEventListener('input', () => show(+slider.value));
document.getElementById('prev').addEventListener('click', () => show(+slider.value - 1));
document.getElementById('next').addEventListener('click', () => show(+slider.value + 1));
document.getElementById('prev-turn').addEventListener('click', () => {
  const i = +slider.value; let p = 0;
  for (const e of D.turn_ends) { if (e < i) p = e; }
  show(p);
});
document.getElementById('next-turn').addEventListener('click', () => {
  const i = +slider.value; let p = N;
  for (const e of D.turn_ends) { if (e > i) { p = e; break; } }
  show(p);
});
show(+slider.value);
})();
"""


def replay_html(tl: Timeline, *, title: str | None = None) -> str:
    """A game's replay as one self-contained, offline HTML document (see module doc)."""
    from hansa_lab.viz.render import PLAYER_COLOURS, fit_width, readable_width, render_legend_svg

    data = replay_data(tl)
    s = tl.final
    cfg = tl.config
    heading = title or (f"Hansa Teutonica replay — {s.board.name}, {cfg.n_players} players, "
                        f"seed {cfg.seed}")
    scores = tl.projected[-1]
    rows = "".join(
        f"<tr><td>{p}</td><td style='text-align:left'>{escape(tl.strategies[p] or '-')}</td>"
        f"<td>{scores[p]}</td></tr>" for p in range(cfg.n_players))
    opts = ", ".join(f"{k}={v}" for k, v in cfg.options) or "default rules"
    reason = s.end_reason or "cap"
    won = winners(s) if s.is_over else []
    winner = " and ".join(f"Seat {p}" + (f" ({tl.strategies[p]})" if tl.strategies[p] else "")
                          for p in won)
    banner = (f"<div class='winner'>\u2605 {escape(winner)} "
              f"{'wins' if len(won) == 1 else 'share the win'} with {scores[won[0]]} points"
              f"</div>" if won else "")
    summary = (f"<div class='summary'>{banner}{escape(s.board.title)} · {cfg.edition} bonus "
               f"markers · {escape(opts)} · game over: {escape(END_REASONS.get(reason, reason))}"
               f" after {len(tl.actions)} actions ({s.turn} turns)<table><tr><th>seat</th>"
               f"<th>strategy</th><th>final score</th></tr>{rows}</table></div>")
    first = "".join(data["parts"][k] for k in data["first"])
    board = first[:first.index("</svg>") + len("</svg>")]
    # the whole board one screen tall, never a label under 9 px (it scrolls sideways in
    # a narrower window), taller in a window wide enough for the panels beside it
    wide = fit_width(board, WIDE_BOARD_HEIGHT)
    css = _CSS % {"fit": fit_width(board, BOARD_HEIGHT), "readable": readable_width(board),
                  "wide": wide, "wide_page": wide + 2 * 360 + 60}
    legend = _inline(render_legend_svg(s.board, s))
    chart = _inline(tl.chart_svg(0))
    js = _JS % {"colours": json.dumps(list(PLAYER_COLOURS))}
    n = tl.n_positions - 1
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{escape(heading)}</title><style>{css}</style></head><body>"
        f"<h1>{escape(heading)}</h1>{summary}"
        "<div id=\"controls\">"
        "<button id=\"play\" type=\"button\">\u25B6 play</button>"
        "<button id=\"prev-turn\" type=\"button\" title=\"previous turn\">\u00AB turn</button>"
        "<button id=\"prev\" type=\"button\" title=\"previous action\">\u25C0</button>"
        f"<input id=\"slider\" type=\"range\" min=\"0\" max=\"{n}\" value=\"0\" step=\"1\" "
        "aria-label=\"position (actions)\">"
        "<button id=\"next\" type=\"button\" title=\"next action\">\u25B6</button>"
        "<button id=\"next-turn\" type=\"button\" title=\"next turn\">turn \u00BB</button>"
        "<span id=\"position\"></span>"
        "<label>speed <select id=\"speed\"><option value=\"600\">slow</option>"
        "<option value=\"250\" selected>normal</option><option value=\"60\">fast</option>"
        "</select></label></div>"
        f"<div id=\"board\" data-position=\"0\">{first}</div>"
        f"<div id=\"lower\"><div id=\"chart\">{chart}</div><div id=\"log\"></div></div>"
        f"<details id=\"legend\" open><summary>what the symbols mean</summary>{legend}</details>"
        f"<script type=\"application/json\" id=\"replay-data\">{_js_json(data)}</script>"
        f"<script>{js}</script></body></html>\n"
    )


def export_replay(
    path: str | os.PathLike[str],
    config: GameConfig | Timeline,
    strategies: str | Sequence[str | Strategy] | None = None,
    *,
    title: str | None = None,
) -> Path:
    """Write a replay HTML file: play ``config`` with ``strategies`` (one per seat, one
    for all, or a comma-separated line-up), or export a :class:`Timeline` as it is.
    Returns the path written."""
    if isinstance(config, Timeline):
        tl = config
    else:
        if strategies is None:
            raise ValueError("export_replay: give the strategies that play the game")
        tl = Timeline.from_seed(config, strategies)
    out = Path(path)
    if out.parent != Path():
        out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(replay_html(tl, title=title), encoding="utf-8")
    return out


__all__ = ["export_replay", "replay_data", "replay_html"]
