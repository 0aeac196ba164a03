"""The rules engine: board data, game state, actions, legal moves and transitions, scoring.

The readable reference of the rules (``data/rules_notes.md`` lists the interpretations).
Pure Python: imports nothing from the rest of ``hansa_lab`` except :mod:`hansa_lab.errors`,
and no numpy or pandas. Variants of the base game live in :mod:`hansa_lab.engine.variants`.
"""
