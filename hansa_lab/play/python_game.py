"""The Python engine's game (:class:`PythonGame`, behind the game loop's
:class:`~hansa_lab.play.loop.Game` protocol) and the Python engine's replays: a game from
its configuration and actions (:func:`replay`), and every state along it
(:func:`states_of`).

>>> from hansa_lab.play import play_game
>>> rec = play_game(GameConfig(n_players=3, seed=5), ["random"] * 3)
>>> rec.end_reason in ("prestige", "markers", "cities")
True
>>> replay(rec.config, rec.actions).n_actions == len(rec.actions)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hansa_lab.engine.actions import Action, parse_action
from hansa_lab.engine.invariants import check_state, check_transition
from hansa_lab.engine.rules import apply, apply_in_place, check_types
from hansa_lab.engine.state import GameConfig, State, new_game
from hansa_lab.errors import IllegalActionError
from hansa_lab.play.loop import DEFAULT_MAX_ACTIONS, Game

__all__ = ["PythonGame", "replay", "states_of"]


class PythonGame(Game):
    """The Python engine behind the :class:`Game` protocol, from ``state`` (updated in
    place unless ``check`` or ``on_step`` asks for immutable states); see
    :func:`hansa_lab.play.play_game` for ``check``, ``on_step`` and ``observer``. Stops after
    ``max_actions``."""

    def __init__(
        self,
        state: State,
        *,
        max_actions: int = DEFAULT_MAX_ACTIONS,
        check: bool = False,
        on_step: Callable[[State, Action, State], None] | None = None,
        observer: Callable[[State, int, str, int], None] | None = None,
    ) -> None:
        self.config = state.config
        self.state = state
        self.max_actions = max_actions
        self.check = check
        self.on_step = on_step
        self.observer = observer
        self.played: list[Action] = []
        self.immutable = check or on_step is not None

    def advance(self) -> int | None:
        s = self.state
        if s.end_reason is not None or len(self.played) >= self.max_actions:
            return None
        return s.current_player

    def position(self) -> State:
        return self.state

    def apply(self, action: Action) -> None:
        state = self.state
        p = state.current_player if self.observer is not None else -1
        if self.immutable:
            nxt = apply(state, action, check=False)
            if self.check:
                check_state(nxt)
                check_transition(state, nxt)
            if self.on_step is not None:
                self.on_step(state, action, nxt)
            self.state = state = nxt
        else:
            apply_in_place(state, action, check=False)
        if self.observer is not None:
            self.observer(state, len(self.played), action.kind, p)
        self.played.append(action)

    def actions(self) -> list[Action]:
        return self.played


def replay(config: GameConfig, actions: Sequence[Action | str], *, check: bool = True) -> State:
    """Replay a game from its configuration and actions (objects or text forms).

    An illegal action, or one that is neither an :class:`Action` nor text
    (``check=False`` too), raises :class:`IllegalActionError` naming its position; text
    that is no action raises :class:`~hansa_lab.errors.ActionParseError`."""
    state = new_game(config)
    for n, a in enumerate(actions):
        act = parse_action(state.board, a) if isinstance(a, str) else a
        try:
            if not check:
                check_types(act)
            state = apply(state, act, check=check)
        except IllegalActionError as e:
            raise IllegalActionError(f"replay step {n + 1}: {e}") from e
    return state


def states_of(config: GameConfig, actions: Sequence[Action]) -> list[State]:
    """Every state of a game, from the set-up to the end (for viewers and logs); an entry
    that is not an :class:`Action` raises :class:`IllegalActionError` naming it."""
    out = [new_game(config)]
    for n, a in enumerate(actions):
        try:
            check_types(a)
        except IllegalActionError as e:
            raise IllegalActionError(f"action {n + 1}: {e}") from None
        out.append(apply(out[-1], a, check=False))
    return out
