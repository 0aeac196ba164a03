"""hansa_lab: simulate Hansa Teutonica at scale and study it in Jupyter."""

from .actions import Action, IllegalActionError, format_action, parse_action
from .board import load_board
from .rules import apply, legal_actions
from .scoring import final_scores, score_breakdown, winners
from .state import GameConfig, State, new_game

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
