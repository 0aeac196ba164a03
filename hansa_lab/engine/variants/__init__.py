"""Rule variants of the engine: Britannia regions and permits (``regions``), East permanent
bonus markers (``permanent``), the neutral colour of the two-player game (``neutral``) and
the Emperor's Favour tiles (``favour``). They import only from :mod:`hansa_lab.engine`."""
