"""Events: what an action caused, as one typed record with named fields.

After each action :attr:`State.events` lists its :class:`Event` records (a displacement,
prestige scored, a Kontor, a bonus marker taken, the game's end, ...). The fields are the
columns of the ``events`` table of a run (:mod:`hansa_lab.sim.logs`); a field an event
kind does not use keeps its default (-1 or empty). :data:`EVENT_KINDS` says, per kind,
what the fields mean and how the event reads as text (:func:`event_text`, used by the
logs' documentation, the timeline and the viewers).

>>> from hansa_lab.engine.state import GameConfig, new_game
>>> ev = Event("displace", seat=1, other=0, route=5, detail="trader")
>>> event_text(new_game(GameConfig(3)).board, ev)
"seat 1 displaced seat 0's trader on r5"
"""

from __future__ import annotations

from typing import NamedTuple

from hansa_lab.engine.board import Board

__all__ = ["EVENT_KINDS", "Event", "EventKind", "event_text"]


class Event(NamedTuple):
    """One thing that happened; unused fields keep their defaults."""

    kind: str
    seat: int = -1  # the colour concerned (the neutral colour in two-player games: 2)
    other: int = -1  # the other seat (a displacement's victim)
    route: int = -1
    city: int = -1  # city index
    detail: str = ""  # ability, bonus marker, piece, cause, tile, end reason … by kind
    value: int = -1  # new level, points, office slot (negative: an extra Kontor) … by kind


class EventKind(NamedTuple):
    meaning: str  # which fields it fills, for the events table's documentation
    text: str  # str.format template over the fields and the derived names below


#: Every event kind: what its fields mean and its text. Templates may use the fields and
#: ``route_name`` (cities of the route), ``city_name``, ``office`` ("office 2" or "an
#: extra Kontor") and ``cause`` (the detail with dashes).
EVENT_KINDS: dict[str, EventKind] = {
    "establish": EventKind("seat established route",
                           "seat {seat} established r{route} ({route_name})"),
    "displace": EventKind("seat displaced other_seat on route; detail = piece displaced",
                          "seat {seat} displaced seat {other}'s {detail} on r{route}"),
    "develop": EventKind("seat developed ability detail to level value",
                         "seat {seat} developed {detail} to level {value}"),
    "kontor": EventKind(
        "seat placed a Kontor in city; value = office slot (negative: extra Kontor)",
        "seat {seat} took {office} in {city_name}"),
    "prestige": EventKind("seat scored value prestige; detail = cause (control, coin, east_west)",
                          "seat {seat} +{value} prestige ({cause})"),
    "special": EventKind("seat took special-prestige space detail worth value",
                         "seat {seat} took special-prestige space {detail} ({value} points)"),
    "marker_taken": EventKind("seat took bonus marker detail from route",
                              "seat {seat} took bonus marker {detail} from r{route}"),
    "marker_used": EventKind("seat used bonus marker detail",
                             "seat {seat} used bonus marker {detail}"),
    "marker_placed": EventKind("seat placed replacement marker detail beside route",
                               "seat {seat} placed bonus marker {detail} beside r{route}"),
    "marker_discarded": EventKind(
        "replacement marker detail had no legal route and left the game",
        "bonus marker {detail} had no free route and was discarded"),
    "east_west": EventKind("seat connected the East-West cities, value = order (1st, 2nd, 3rd)",
                           "seat {seat} connected the East-West cities ({value}.)"),
    "city_completed": EventKind("city's last office was filled", "{city_name} is completed"),
    "game_end": EventKind("the game ended; detail = end reason", "game over ({detail})"),
    "permanent": EventKind(
        "seat resolves the permanent marker detail of route (East, Britannia)",
        "seat {seat} uses the permanent marker {detail} of r{route}"),
    "permit": EventKind(
        "seat used the permission of city (Britannia: Cardiff, Carlisle, London)",
        "seat {seat} used the permission of {city_name}"),
    "favour": EventKind("seat took the Emperor's Favour tile detail (rule option emperor)",
                        "seat {seat} took the Emperor's Favour tile {detail}"),
    "favour_income": EventKind(
        "seat's income-share favour tile paid a detail (piece) on an opponent's Income",
        "seat {seat} took a {detail} (income share)"),
    "neutral_placed": EventKind(
        "the neutral colour (seat, two-player variant) received a trader on route",
        "the neutral colour placed a trader on r{route}"),
}


def event_text(board: Board, event: Event) -> str:
    """An event as a sentence (:data:`EVENT_KINDS`)."""
    kind = EVENT_KINDS.get(event.kind)
    if kind is None:
        return " ".join(map(str, event))
    return kind.text.format(
        **event._asdict(),
        route_name=board.route_name(event.route) if event.route >= 0 else "",
        city_name=board.city_names[event.city] if event.city >= 0 else "",
        office="an extra Kontor" if event.value < 0 else f"office {event.value}",
        cause=event.detail.replace("_", "-"),
    )
