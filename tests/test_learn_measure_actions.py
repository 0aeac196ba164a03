"""``learn-measure``'s Actions figures (issue 39: `strong` barely develops Actions on East
and Britannia against ``strong_v1``): the challenger's mean Actions level at the end and
the opponents' mean over their seats, read from the same games as its win share."""

from __future__ import annotations

from hansa_lab.engine.board import A_ACTIONS
from hansa_lab.engine.state import GameConfig
from hansa_lab.play import play_game
from hansa_lab.studies.learn import measure_seat


def test_the_actions_figures_are_the_seats_final_levels():
    res = measure_seat("actions_rush", "greedy", n_players=3, board="east", deals=2,
                       seed=41, reference="")
    own, theirs = [], []
    for d in range(2):
        for seat in range(3):
            lineup = ["greedy"] * 3
            lineup[seat] = "actions_rush"
            final = play_game(GameConfig(3, board="east", seed=41 + d), lineup,
                              engine="core").final
            levels = [final.levels[p][A_ACTIONS] for p in range(3)]
            own.append(levels[seat])
            theirs += [v for p, v in enumerate(levels) if p != seat]
    assert res.actions_developed == sum(own) / 6
    assert res.opponents_actions_developed == sum(theirs) / 12
    # the rush develops Actions further than greedy does: the figure tells them apart
    assert res.actions_developed > res.opponents_actions_developed
    assert "Actions developed" in res.line()
