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
"Seat 1 displaced seat 0's trader on Emden–Osnabrück"
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
#: the derived words: ``route_name`` (cities of the route), ``city_name``, ``office`` ("a
#: Kontor on office 2" or "an extra Kontor"), ``cause`` (why prestige was scored),
#: ``ability`` (the ability's name), ``marker`` (the bonus marker or printed bonus in
#: words), ``tile`` (an Emperor's Favour tile in words), ``piece`` (the detail's piece),
#: ``victim`` ("seat 0" or "the neutral colour"), ``ordinal`` ("1st", "2nd", …),
#: ``space`` (a special-prestige space counted from 1), ``special_city`` and
#: ``reason`` (why the game ended).
EVENT_KINDS: dict[str, EventKind] = {
    "establish": EventKind("seat established route",
                           "Seat {seat} established {route_name}"),
    "displace": EventKind("seat displaced other_seat on route; detail = piece displaced",
                          "Seat {seat} displaced {victim}'s {detail} on {route_name}"),
    "develop": EventKind("seat developed ability detail to level value; city = the ability "
                         "city it came from (-1: a bonus marker or printed bonus)",
                         "Seat {seat} developed {ability} to level {value}"),
    "kontor": EventKind(
        "seat placed a Kontor in city; value = office slot (negative: extra Kontor)",
        "Seat {seat} opened {office} in {city_name}"),
    "prestige": EventKind("seat scored value prestige; detail = cause (control, coin, east_west)",
                          "Seat {seat} scored {value} prestige ({cause})"),
    "special": EventKind("seat took special-prestige space detail worth value",
                         "Seat {seat} took special-prestige space {space} in {special_city} "
                         "({value} points)"),
    "marker_taken": EventKind("seat took bonus marker detail from route",
                              "Seat {seat} took the bonus marker '{marker}' from {route_name}"),
    "marker_used": EventKind("seat used bonus marker detail",
                             "Seat {seat} used the bonus marker '{marker}'"),
    "marker_placed": EventKind("seat placed replacement marker detail beside route",
                               "Seat {seat} placed the bonus marker '{marker}' beside "
                               "{route_name}"),
    "marker_discarded": EventKind(
        "replacement marker detail had no legal route and left the game",
        "The bonus marker '{marker}' had no free route and was discarded"),
    "east_west": EventKind("seat connected the East-West cities, value = order (1st, 2nd, 3rd)",
                           "Seat {seat} connected the East–West cities ({ordinal} to do so)"),
    "city_completed": EventKind("city's last office was filled", "{city_name} is completed"),
    "game_end": EventKind("the game ended; detail = end reason", "Game over: {reason}"),
    "permanent": EventKind(
        "seat resolves the permanent marker detail of route (East, Britannia)",
        "Seat {seat} uses the printed bonus '{marker}' of {route_name}"),
    "permit": EventKind(
        "seat used the permission of city (Britannia: Cardiff, Carlisle, London)",
        "Seat {seat} used the permission of {city_name}"),
    "favour": EventKind("seat took the Emperor's Favour tile detail (rule option emperor)",
                        "Seat {seat} took the Emperor's Favour tile '{tile}'"),
    "favour_income": EventKind(
        "seat's income-share favour tile paid a detail (piece) on an opponent's Income",
        "Seat {seat} moved a {piece} from the stock to the supply (income share)"),
    "neutral_placed": EventKind(
        "the neutral colour (seat, two-player variant) received a trader on route",
        "The neutral colour placed a trader on {route_name}"),
}

_CAUSES = {"control": "city control", "coin": "an office's prestige coin",
           "east_west": "East–West connection"}


def _ordinal(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th')}"


def event_text(board: Board, event: Event, neutral: int = -1) -> str:
    """An event as a sentence (:data:`EVENT_KINDS`); ``neutral`` is the neutral
    colour's index in a two-player game (named so, not as a seat)."""
    from hansa_lab.engine.narrate import (
        ABILITY_NAMES,
        END_REASONS,
        FAVOUR_NAMES,
        MARKER_NAMES,
        PERMANENT_NAMES,
    )

    kind = EVENT_KINDS.get(event.kind)
    if kind is None:
        return " ".join(map(str, event))
    d = event.detail
    return kind.text.format(
        **event._asdict(),
        route_name=board.route_name(event.route) if event.route >= 0 else "",
        city_name=board.city_names[event.city] if event.city >= 0 else "",
        office=("an extra Kontor" if event.value < 0
                else f"a Kontor on office {event.value + 1}"),
        cause=_CAUSES.get(d, d.replace("_", " ")),
        ability=ABILITY_NAMES.get(d, d),
        marker=MARKER_NAMES.get(d) or PERMANENT_NAMES.get(d) or d.replace("_", " "),
        tile=FAVOUR_NAMES.get(d, d.replace("_", " ")),
        piece=d,
        victim="the neutral colour" if event.other == neutral >= 0 else f"seat {event.other}",
        ordinal=_ordinal(event.value),
        space=int(d) + 1 if d.isdigit() else d,
        special_city=board.city_names[board.special_city],
        reason=END_REASONS.get(d, d.replace("_", " ")),
    )
