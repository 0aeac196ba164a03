"""The compiled core's answer on the rule scenario tests' positions.

The scenario helpers (tests/helpers.py) build every position in Python;
through these checks each legal-action query, applied action and refused action is asked
of the core too (:class:`hansa_lab.play.core_game.CoreGame` built from the same position): the same
legal actions in the same order, the same resulting state, events and scores, the same
exception type and message.
"""

from __future__ import annotations

from hansa_lab.compiled.bridge import CoreGame
from hansa_lab.engine.actions import Action
from hansa_lab.engine.rules import legal_actions
from hansa_lab.engine.scoring import score_rows
from hansa_lab.engine.state import State


def core_of(s: State) -> CoreGame:
    game = CoreGame.from_state(s)
    assert game.to_state() == s, "the core's copy of the position differs"
    return game


def check_legal(s: State) -> None:
    game = core_of(s)
    assert game.legal_actions() == legal_actions(s)
    assert game.score_rows() == score_rows(s)


def check_apply(before: State, action: Action, after: State) -> None:
    game = core_of(before)
    assert game.legal_actions() == legal_actions(before)
    game.apply(action)
    assert game.to_state() == after
    assert game.events() == after.events
    assert game.score_rows() == score_rows(after)


def check_illegal(s: State, action: Action, error: BaseException) -> None:
    game = core_of(s)
    try:
        game.apply(action)
    except Exception as e:
        assert (type(e), str(e)) == (type(error), str(error))
    else:
        raise AssertionError(f"the core applied {action!r}, which Python refuses")
    assert game.to_state() == s


def check_scores(s: State) -> None:
    """The core's final-score breakdown and ranking of a position built in Python."""
    from hansa_lab.engine.scoring import ranking, score_breakdown

    game = core_of(s)
    assert game.score_breakdown() == score_breakdown(s)
    assert game.ranking() == ranking(s)
