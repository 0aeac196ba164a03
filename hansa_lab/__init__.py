"""hansa_lab: simulate Hansa Teutonica at scale and study it in Jupyter."""

from hansa_lab.engine.actions import Action, format_action, parse_action
from hansa_lab.engine.board import load_board
from hansa_lab.engine.rules import apply, legal_actions
from hansa_lab.engine.scoring import final_scores, score_breakdown, winners
from hansa_lab.engine.state import GameConfig, State, new_game
from hansa_lab.errors import IllegalActionError

__version__ = "0.1.0"

__all__ = [
    "Action",
    "GameConfig",
    "IllegalActionError",
    "State",
    "__version__",
    "apply",
    "final_scores",
    "format_action",
    "legal_actions",
    "load_board",
    "new_game",
    "parse_action",
    "score_breakdown",
    "winners",
]
