"""Set-up shared by the test modules.

The position helpers of the rule and scoring tests are plain functions in
``tests/helpers.py`` (``from helpers import position, settle, ...``; see its docstring
for the two ways of building a position). Several of them check with ``assert``
(:func:`helpers.play`, :func:`helpers.illegal`, ...): registering the module for
pytest's assertion rewriting makes a failing check inside a helper show its values,
as a check in a test does.
"""

import pytest

pytest.register_assert_rewrite("helpers")
