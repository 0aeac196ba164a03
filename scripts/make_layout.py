#!/usr/bin/env python3
"""ONE-OFF GENERATOR for hansa_lab/viz/data/layout.json (board layouts for the SVG renderer).

This script is run by hand, once, when the layout needs regenerating. It reads the
reference facts file (../shared/data/ht_board_facts.json) at *generation time only*;
the hansa_lab package itself never reads ../shared -- at run time only the generated
JSON is used.

How the layout is made (deterministic, stdlib only):
  1. Each city gets an approximate real-world (lat, lon) from GEO below.
  2. Equirectangular projection, x scaled by cos(mean latitude of the board's cities),
     fitted into a canvas WIDTH px wide (height follows the aspect ratio), MARGIN px
     margin on every side. SVG convention: y grows downwards (north is up).
  3. Small per-board hand tweaks (HAND_TWEAKS, pixel offsets) for the worst clusters.
     (After step 4, FINAL_NUDGES move a few cities where a route would pass too close.)
  4. A small relaxation: overlapping city boxes are pushed apart along the axis of
     least penetration (in the direction of their geographic order, so west stays
     west and north stays north), cities sitting on another route's line are pushed
     off it, too-short routes are lengthened a little, and a weak spring pulls every
     city back towards its geographic anchor. A final pass without the spring removes
     any remaining overlap. Positions are clamped to the canvas.
  5. Rounded to integers, written to hansa_lab/viz/data/layout.json, then checked:
     every city of every board is present under its exact facts-file name, and no
     two boxes overlap.

Usage:
    python scripts/make_layout.py [--facts PATH] [--out PATH]
    python scripts/make_layout.py --check      # only verify an existing layout.json
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FACTS = ROOT.parent / "shared" / "data" / "ht_board_facts.json"
DEFAULT_OUT = ROOT / "hansa_lab" / "viz" / "data" / "layout.json"

BOARDS = ["base_3p", "base_45p", "east_expansion", "britannia_3p", "britannia_45p"]

WIDTH = 1000  # canvas width in px; height follows the geographic aspect ratio
MARGIN = 60  # margin around the city centres' bounding box
BOX_W, BOX_H = 90, 40  # nominal city box drawn by the renderer
SEP_X, SEP_Y = 110, 60  # two centres need |dx| >= SEP_X or |dy| >= SEP_Y
ROUTE_PAD = 10  # clearance between a route line and a foreign city box
POST_PX = 20  # room per post marker along a route (visible part of the line)

# Approximate (latitude, longitude) of the real historical towns.
GEO: dict[str, tuple[float, float]] = {
    # --- base board: northern Germany / Netherlands ---
    "Arnheim": (51.98, 5.91),
    "Brunswick": (52.27, 10.52),
    "Bremen": (53.08, 8.80),
    "Coellen": (50.94, 6.96),
    "Dortmund": (51.51, 7.47),
    "Duisburg": (51.43, 6.76),
    "Emden": (53.37, 7.21),
    "Goslar": (51.91, 10.43),
    "Göttingen": (51.54, 9.93),
    "Gröningen": (53.22, 6.57),
    "Halle": (51.48, 11.97),
    "Hamburg": (53.55, 9.99),
    "Hannover": (52.37, 9.73),
    "Hildesheim": (52.15, 9.95),
    "Kampen": (52.56, 5.91),
    "Lübeck": (53.87, 10.69),
    "Lüneburg": (53.25, 10.41),
    "Magdeburg": (52.13, 11.63),
    "Minden": (52.29, 8.92),
    "Münster": (51.96, 7.63),
    "Osnabrück": (52.28, 8.05),
    "Paderborn": (51.72, 8.75),
    "Perleberg": (53.07, 11.86),
    "Quedlinburg": (51.79, 11.15),
    "Stade": (53.60, 9.48),
    "Stendal": (52.61, 11.86),
    "Warburg": (51.49, 9.14),
    # --- East expansion: Brandenburg / Pomerania / Prussia / Poland / Baltic ---
    "Allenstein": (53.78, 20.49),
    "Anklam": (53.86, 13.69),
    "Belgard": (54.01, 15.99),
    "Berlin-Cölln": (52.52, 13.40),
    "Brandenburg": (52.41, 12.53),
    "Braunsberg": (54.38, 19.82),
    "Breslau": (51.11, 17.04),
    "Danzig": (54.35, 18.65),
    "Dresden": (51.05, 13.74),
    "Elbing": (54.16, 19.40),
    "Frankfurt": (52.35, 14.55),  # Frankfurt (Oder)
    "Havelberg": (52.83, 12.07),
    "Königsberg": (54.71, 20.51),
    "Krakau": (50.06, 19.94),
    "Kulm": (53.35, 18.42),
    "Malmö": (55.60, 13.00),
    "Stettin": (53.43, 14.55),
    "Stralsund": (54.31, 13.09),
    "Tangermünde": (52.54, 11.97),
    "Thorn": (53.01, 18.60),
    "Visby": (57.64, 18.30),
    "Waren": (53.52, 12.68),
    "Wismar": (53.89, 11.47),
    "Wittenberg": (51.87, 12.65),
    # --- Britannia: England / Wales / Scotland / Calais ---
    "Bristol": (51.45, -2.59),
    "Calais": (50.95, 1.86),
    "Cambridge": (52.21, 0.12),
    "Canterbury": (51.28, 1.08),
    "Cardiff": (51.48, -3.18),
    "Carlisle": (54.89, -2.93),
    "Chester": (53.19, -2.89),
    "Conway": (53.28, -3.83),
    "Coventry": (52.41, -1.51),
    "Dunbar": (56.00, -2.52),
    "Durham": (54.78, -1.57),
    "Edinburgh": (55.95, -3.19),
    "Falkirk": (56.00, -3.78),
    "Glasgow": (55.86, -4.25),
    "Hereford": (52.06, -2.72),
    "Ipswich": (52.06, 1.16),
    "Isle of Man": (54.23, -4.55),
    "Lancaster": (54.05, -2.80),
    "London": (51.51, -0.13),
    "Montgomery": (52.56, -3.15),
    "Newcastle": (54.97, -1.61),
    "Norwich": (52.63, 1.30),
    "Nottingham": (52.95, -1.15),
    "Oxford": (51.75, -1.26),
    "Pembroke": (51.67, -4.92),
    "Plymouth": (50.38, -4.14),
    "Richmond": (54.40, -1.74),  # Richmond, North Yorkshire
    "Salisbury": (51.07, -1.79),
    "Southampton": (50.90, -1.40),
    "York": (53.96, -1.08),
}

# Hand tweaks: pixel offsets (dx, dy) applied to the projected anchor before relaxing.
HAND_TWEAKS: dict[str, dict[str, tuple[int, int]]] = {
    # Hildesheim lies south-east of Hannover: keep it visibly east when they stack.
    "base_3p": {"Hildesheim": (25, 10), "Stade": (-15, 0), "Goslar": (10, -15)},
    "base_45p": {"Hildesheim": (25, 10), "Stade": (-15, 0), "Goslar": (10, -15)},
    # The Brandenburg/Elbe cluster is very dense at this scale while Pomerania and
    # Poland are roomy: spread the cluster eastwards and southwards a little.
    "east_expansion": {
        "Wismar": (-10, 0),
        "Perleberg": (30, -12),
        "Tangermünde": (30, 0),
        "Magdeburg": (15, 0),
        "Halle": (10, 10),
        "Havelberg": (25, 0),
        "Brandenburg": (60, 10),
        "Berlin-Cölln": (90, 0),
        "Wittenberg": (60, 25),
        "Dresden": (95, 30),
        "Waren": (40, -10),
        "Anklam": (30, -10),
        "Stettin": (45, 0),
        "Frankfurt": (55, 10),
        "Belgard": (20, -10),
        "Breslau": (20, 0),
    },
    # Bristol pushes Salisbury east of Southampton otherwise.
    "britannia_3p": {"Bristol": (-15, -15), "Salisbury": (-20, 0), "Southampton": (25, 10)},
    "britannia_45p": {
        "Bristol": (-15, -15),
        "Salisbury": (-20, 0),
        "Southampton": (25, 10),
        "Dunbar": (20, 0),
    },
}


# Final nudges: pixel offsets (dx, dy) applied after the relaxation, where a route still
# runs too close to a foreign city for the renderer to bend it clear (tests/test_render.py
# checks every route against every other city's box). Minden–Brunswick passes between
# Hannover and Hildesheim: open the gap.
FINAL_NUDGES: dict[str, dict[str, tuple[int, int]]] = {
    "base_3p": {"Hannover": (-8, -12), "Hildesheim": (-4, 14), "Goslar": (14, 0)},
    "base_45p": {"Hannover": (-8, -12), "Hildesheim": (-4, 14), "Goslar": (14, 0)},
}


# ----------------------------------------------------------------------------------
# projection
# ----------------------------------------------------------------------------------
def project(names: list[str]) -> tuple[int, int, dict[str, list[float]]]:
    lats = [GEO[n][0] for n in names]
    lons = [GEO[n][1] for n in names]
    k = math.cos(math.radians(sum(lats) / len(lats)))
    xs = [lon * k for lon in lons]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(lats), max(lats)
    scale = (WIDTH - 2 * MARGIN) / (x1 - x0)
    height = round((y1 - y0) * scale + 2 * MARGIN)
    pos = {
        n: [MARGIN + (x - x0) * scale, MARGIN + (y1 - lat) * scale]
        for n, x, lat in zip(names, xs, lats, strict=True)
    }
    return WIDTH, height, pos


# ----------------------------------------------------------------------------------
# geometry helpers
# ----------------------------------------------------------------------------------
def _sign(v: float, fallback: float) -> float:
    if abs(v) > 1e-9:
        return 1.0 if v > 0 else -1.0
    return 1.0 if fallback >= 0 else -1.0


def segment_hits_box(p, q, c, hw, hh) -> bool:
    """Liang-Barsky: does segment p->q intersect the axis-aligned box centred at c?"""
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for pk, qk in (
        (-dx, p[0] - (c[0] - hw)),
        (dx, (c[0] + hw) - p[0]),
        (-dy, p[1] - (c[1] - hh)),
        (dy, (c[1] + hh) - p[1]),
    ):
        if abs(pk) < 1e-12:
            if qk < 0:
                return False
        else:
            t = qk / pk
            if pk < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 > t1:
                return False
    return True


def box_exit(ux: float, uy: float, hw: float = BOX_W / 2, hh: float = BOX_H / 2) -> float:
    """Distance from a box centre to its border along unit direction (ux, uy)."""
    cands = []
    if abs(ux) > 1e-9:
        cands.append(hw / abs(ux))
    if abs(uy) > 1e-9:
        cands.append(hh / abs(uy))
    return min(cands)


def visible_length(p, q) -> float:
    dx, dy = q[0] - p[0], q[1] - p[1]
    d = math.hypot(dx, dy)
    if d < 1e-9:
        return 0.0
    return d - 2 * box_exit(dx / d, dy / d)


def overlaps(p, q) -> bool:
    return abs(p[0] - q[0]) < SEP_X and abs(p[1] - q[1]) < SEP_Y


# ----------------------------------------------------------------------------------
# relaxation
# ----------------------------------------------------------------------------------
def relax(names, routes, anchor, width, height, iters=1500, final=600):
    pos = {n: list(anchor[n]) for n in names}
    lo_x, hi_x = MARGIN, width - MARGIN
    lo_y, hi_y = MARGIN, height - MARGIN

    def step(spring: float, soft: bool) -> float:
        disp = {n: [0.0, 0.0] for n in names}
        worst = 0.0
        # 1. box overlap: resolve along the axis of least (normalised) penetration
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                pa, pb = pos[a], pos[b]
                dx, dy = pb[0] - pa[0], pb[1] - pa[1]
                ox, oy = SEP_X - abs(dx), SEP_Y - abs(dy)
                if ox <= 0 or oy <= 0:
                    continue
                worst = max(worst, min(ox, oy))
                adx = anchor[b][0] - anchor[a][0]
                ady = anchor[b][1] - anchor[a][1]
                if ox / SEP_X < oy / SEP_Y:
                    s = _sign(adx, dx) * (ox / 2 + 0.5)
                    disp[a][0] -= s
                    disp[b][0] += s
                else:
                    s = _sign(ady, dy) * (oy / 2 + 0.5)
                    disp[a][1] -= s
                    disp[b][1] += s
        if soft:
            # 2. routes must not run through foreign boxes
            hw, hh = BOX_W / 2 + ROUTE_PAD, BOX_H / 2 + ROUTE_PAD
            for a, b, _posts in routes:
                pa, pb = pos[a], pos[b]
                dx, dy = pb[0] - pa[0], pb[1] - pa[1]
                d = math.hypot(dx, dy) or 1.0
                nx, ny = -dy / d, dx / d
                for c in names:
                    if c in (a, b):
                        continue
                    pc = pos[c]
                    if not segment_hits_box(pa, pb, pc, hw, hh):
                        continue
                    side = (pc[0] - pa[0]) * nx + (pc[1] - pa[1]) * ny
                    need = hw * abs(nx) + hh * abs(ny)
                    push = (need - abs(side)) * 0.3 + 0.5
                    sgn = _sign(
                        side,
                        (anchor[c][0] - anchor[a][0]) * nx + (anchor[c][1] - anchor[a][1]) * ny,
                    )
                    disp[c][0] += sgn * nx * push
                    disp[c][1] += sgn * ny * push
                    for e in (a, b):
                        disp[e][0] -= sgn * nx * push * 0.25
                        disp[e][1] -= sgn * ny * push * 0.25
            # 3. routes long enough for their post markers
            for a, b, posts in routes:
                pa, pb = pos[a], pos[b]
                vis = visible_length(pa, pb)
                want = POST_PX * posts + 6
                if vis < want:
                    dx, dy = pb[0] - pa[0], pb[1] - pa[1]
                    d = math.hypot(dx, dy) or 1.0
                    s = (want - vis) * 0.25
                    disp[a][0] -= dx / d * s
                    disp[a][1] -= dy / d * s
                    disp[b][0] += dx / d * s
                    disp[b][1] += dy / d * s
        # 4. spring back towards the geographic anchor
        for n in names:
            disp[n][0] += spring * (anchor[n][0] - pos[n][0])
            disp[n][1] += spring * (anchor[n][1] - pos[n][1])
        for n in names:
            p = pos[n]
            p[0] = min(hi_x, max(lo_x, p[0] + 0.5 * disp[n][0]))
            p[1] = min(hi_y, max(lo_y, p[1] + 0.5 * disp[n][1]))
        return worst

    for _ in range(iters):
        step(0.02, True)
    for _ in range(final):
        if step(0.0, False) == 0.0:
            break
    return pos


# ----------------------------------------------------------------------------------
# generation + checks
# ----------------------------------------------------------------------------------
def board_names_routes(board: dict):
    names = [c["name"] for c in board["cities"]]
    routes = [(r["a"], r["b"], int(r.get("posts", 3))) for r in board["routes"]]
    return names, routes


def generate(facts: dict) -> dict:
    out = {}
    for key in BOARDS:
        names, routes = board_names_routes(facts["boards"][key])
        names_sorted = sorted(names)  # deterministic order independent of the file
        width, height, anchor = project(names_sorted)
        for n, (tx, ty) in HAND_TWEAKS.get(key, {}).items():
            anchor[n][0] += tx
            anchor[n][1] += ty
        pos = relax(names_sorted, routes, anchor, width, height)
        for n, (dx, dy) in FINAL_NUDGES.get(key, {}).items():
            pos[n][0] += dx
            pos[n][1] += dy
        out[key] = {
            "width": width,
            "height": height,
            "cities": {n: [round(pos[n][0]), round(pos[n][1])] for n in names},
        }
    return out


def board_stats(layout_board: dict, routes) -> dict:
    cities = layout_board["cities"]
    names = list(cities)
    min_d, min_pair = float("inf"), None
    overlapping = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            pa, pb = cities[a], cities[b]
            d = math.hypot(pa[0] - pb[0], pa[1] - pb[1])
            if d < min_d:
                min_d, min_pair = d, (a, b)
            if overlaps(pa, pb):
                overlapping.append((a, b))
    crossings = []
    for a, b, _p in routes:
        for c in names:
            if c not in (a, b) and segment_hits_box(
                cities[a], cities[b], cities[c], BOX_W / 2, BOX_H / 2
            ):
                crossings.append((a, b, c))
    short = [
        (a, b, p, round(visible_length(cities[a], cities[b])))
        for (a, b, p) in routes
        if visible_length(cities[a], cities[b]) < POST_PX * p
    ]
    return {
        "min_dist": round(min_d, 1),
        "min_pair": min_pair,
        "overlapping": overlapping,
        "route_through_box": crossings,
        "short_routes": short,
    }


def geo_order_violations(layout_board: dict, min_px: float = 30.0, near_px: float = 350.0):
    """Pairs whose west/east or north/south order flipped.

    Only pairs of neighbours (projected positions within near_px) whose projected
    positions differ by more than min_px on that axis count (near-ties may swap), and
    only if the swap is larger than 5 px.
    """
    cities = layout_board["cities"]
    names = sorted(cities)
    _w, _h, anchor = project(names)
    bad = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            if math.dist(anchor[a], anchor[b]) > near_px:
                continue
            for axis, label in ((0, "east-west"), (1, "north-south")):
                ad = anchor[b][axis] - anchor[a][axis]
                fd = cities[b][axis] - cities[a][axis]
                if abs(ad) > min_px and ad * fd < 0 and abs(fd) > 5:
                    bad.append((a, b, label))
    return bad


def check(layout: dict, facts: dict, verbose: bool = True) -> None:
    assert set(layout) == set(BOARDS), f"boards: {sorted(layout)}"
    for key in BOARDS:
        lb = layout[key]
        names, routes = board_names_routes(facts["boards"][key])
        missing = [n for n in names if n not in lb["cities"]]
        extra = [n for n in lb["cities"] if n not in names]
        assert not missing, f"{key}: missing cities {missing}"
        assert not extra, f"{key}: unknown cities {extra}"
        assert isinstance(lb["width"], int) and isinstance(lb["height"], int)
        for n, xy in lb["cities"].items():
            assert len(xy) == 2 and all(isinstance(v, int) for v in xy), (key, n, xy)
            assert BOX_W / 2 <= xy[0] <= lb["width"] - BOX_W / 2, (key, n, xy)
            assert BOX_H / 2 <= xy[1] <= lb["height"] - BOX_H / 2, (key, n, xy)
        st = board_stats(lb, routes)
        assert not st["overlapping"], f"{key}: overlapping boxes {st['overlapping']}"
        flips = geo_order_violations(lb)
        if verbose:
            print(
                f"{key}: {len(names)} cities OK, canvas {lb['width']}x{lb['height']}, "
                f"min centre distance {st['min_dist']} px {st['min_pair']}, "
                f"overlaps 0, routes through boxes {st['route_through_box'] or 0}, "
                f"short routes {st['short_routes'] or 0}, order flips {flips or 0}"
            )


def dump(layout: dict) -> str:
    """Compact, diff-friendly JSON: one line per city."""
    lines = ["{"]
    for bi, key in enumerate(BOARDS):
        b = layout[key]
        lines.append(f'  "{key}": {{"width": {b["width"]}, "height": {b["height"]}, "cities": {{')
        items = list(b["cities"].items())
        for ci, (name, (x, y)) in enumerate(items):
            sep = "," if ci < len(items) - 1 else ""
            lines.append(f"    {json.dumps(name, ensure_ascii=False)}: [{x}, {y}]{sep}")
        lines.append("  }}" + ("," if bi < len(BOARDS) - 1 else ""))
    lines.append("}")
    text = "\n".join(lines) + "\n"
    assert json.loads(text) == layout
    return text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--facts", type=Path, default=DEFAULT_FACTS)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--check", action="store_true", help="only check an existing layout")
    args = ap.parse_args()
    facts = json.loads(args.facts.read_text(encoding="utf-8"))
    if not args.check:
        layout = generate(facts)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(dump(layout), encoding="utf-8")
        print(f"wrote {args.out}")
    layout = json.loads(args.out.read_text(encoding="utf-8"))
    check(layout, facts)


if __name__ == "__main__":
    main()
