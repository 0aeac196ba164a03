"""One-off generator: convert the cross-checked board facts into package data.

Reads ``../shared/data/ht_board_facts.json`` (generation time only) and writes
``hansa_lab/engine/data/boards.json``, the only board file the package reads at run time.
Primary values are used; for the disputed East cities the alternative source's values
are kept under ``alternatives`` so that a board option can select them.

Run from the project root:  python scripts/make_board_data.py
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FACTS = ROOT.parent / "shared" / "data" / "ht_board_facts.json"
OUT = ROOT / "hansa_lab" / "engine" / "data" / "boards.json"

BOARD_KEYS = {
    "base_3p": ("base_3p", [2, 3]),
    "base_45p": ("base_45p", [4, 5]),
    "east_expansion": ("east", [3, 4, 5]),
    "britannia_3p": ("britannia_3p", [3]),
    "britannia_45p": ("britannia_45p", [4, 5]),
}
COLOURS = ["white", "orange", "pink", "black"]
ABILITY = {
    "actions (Actiones)": "actions",
    "bank (income)": "bank",
    "book (Liber Sophiae)": "book",
    "privilege (Privilegium)": "privilege",
    "keys (Clavis Urbis)": "keys",
}
PERMANENT = {
    "move any 2 tradesmen (swaps allowed)": "move2",
    "develop Privilege": "privilege",
    "establish a Kontor in a yellow/green city": "kontor_yellow_green",
    "place 2 tradesmen from the route onto free posts": "place2_from_route",
    "place 2 tradesmen on free posts in Wales and/or Scotland (taken from general stock, "
    "then personal supply, then from route posts)": "place2_regions",
}


def office(colour: str | int, shape: str, coin: int) -> list:
    if isinstance(colour, int):
        colour = COLOURS[colour]
    return [colour, "trader" if "square" in shape else "merchant", coin]


def convert_city(c: dict) -> dict:
    out: dict = {
        "name": c["name"],
        "ascii": c["ascii"],
        "offices": [office(o["color"], o["shape"], o["prestige_points"]) for o in c["offices"]],
        "abilities": [ABILITY[a] for a in c["ability"] if a in ABILITY],
        "special_prestige": any(a.startswith("special prestige") for a in c["ability"]),
    }
    if c.get("regions"):
        out["regions"] = c["regions"]
    if c.get("grants_permission_for"):
        out["grants_permission_for"] = c["grants_permission_for"]
    if c.get("yellow_green_city"):
        out["yellow_green"] = True
    return out


def convert_route(r: dict) -> dict:
    out: dict = {"a": r["a"], "b": r["b"], "posts": r["posts"], "tavern": r["tavern_start_marker"]}
    if r.get("merchant_only_posts"):
        out["merchant_only_posts"] = r["merchant_only_post_positions_yav"]
    if r.get("permanent_bonus_marker"):
        out["permanent_marker"] = PERMANENT[r["permanent_bonus_marker"]]
    if r.get("region"):
        out["region"] = r["region"]
    return out


def alternatives(board: dict) -> dict:
    """The other source's values for cities whose primary values are disputed."""
    alt: dict = {}
    for city in board["cities"]:
        for source, other in (city.get("sources_disagreeing") or {}).items():
            entry: dict = {"source": source}
            if "offices" in other:
                entry["offices"] = [
                    office(o["color"], o["shape"], o["prestige_points"]) for o in other["offices"]
                ]
            if "ability" in other:
                entry["abilities"] = [a for a in other["ability"] if a in ABILITY.values()]
            alt[city["name"]] = entry
    return alt


def main() -> None:
    facts = json.loads(FACTS.read_text(encoding="utf-8"))
    boards = {}
    for key, (name, players) in BOARD_KEYS.items():
        b = facts["boards"][key]
        boards[name] = {
            "title": b["board"],
            "players": players,
            "east_west": b["east_west_connection"]["cities"],
            "east_west_points": b["east_west_connection"]["points_1st_2nd_3rd"],
            "completed_cities_to_end": b["completed_cities_to_end"],
            "special_prestige_city": b["special_prestige_city"],
            "special_prestige_route": b.get("special_prestige_route"),
            "special_prestige_spaces": [
                [s["points"], s["privilege_required"]] for s in b["special_prestige_spaces"]
            ],
            "tavern_routes": b["tavern_routes"],
            "summary": b["summary"],
            "cities": [convert_city(c) for c in b["cities"]],
            "routes": [convert_route(r) for r in b["routes"]],
            "alternatives": alternatives(b) if name == "east" else {},
        }
    pb = facts["player_board"]
    data = {
        "generated_from": "shared/data/ht_board_facts.json (primary values; see rules_notes.md)",
        "boards": boards,
        "player_board": {
            "actions": pb["actions_Actiones"]["values"],
            "bank": [v if v != "all" else None for v in pb["bank_income"]["values"]],
            "book": pb["book_Liber_Sophiae"]["values"],
            "privilege": pb["privilege_Privilegium"]["values"],
            "keys": pb["keys_Clavis_Urbis"]["values"],
        },
        "pieces": {"traders": 27, "merchants": 4},
        "marker_score": [[1, 1], [2, 3], [4, 6], [6, 10], [8, 15], [10, 21]],
    }
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
