"""The rules engine: the readable reference of the rules.

``board`` (board data loaded from ``data/boards.json`` into lookup tables), ``state`` (the
game state and its configuration), ``actions`` (small hashable actions with a text form),
``decisions`` (pending decisions as typed records), ``rules`` (legal actions and
transitions), ``explain`` (why an action is illegal), ``effects`` (primitives the rules
share), ``events`` (what an action caused), ``scoring`` (final scoring by category),
``invariants`` (conservation checks), ``text`` (a state as text), and ``variants``
(Britannia's regions, permanent markers, the neutral colour, Emperor's Favour).
``data/rules_notes.md`` lists the interpretations of the rules.

Pure Python: imports only :mod:`hansa_lab.errors` from the rest of the package, and no
numpy or pandas.
"""
