"""The compiled rules core (the Rust crate in ``core/``, built as ``hansa_lab._core``) as
seen from Python: :mod:`hansa_lab.compiled.bridge`, the one door to it — a core position
(:class:`~hansa_lab.compiled.bridge.CoreGame`), its conversion to and from the engine's
:class:`~hansa_lab.engine.state.State`, the resolved configuration the core receives and
typed functions for the core's other objects. On the engine's level, so strategies may
use it; whole games in the core are in :mod:`hansa_lab.play.core_game`.
"""
