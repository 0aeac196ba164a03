"""The package's version, written in one place: ``core/Cargo.toml`` (the crate and the
Python package share it; ``pyproject.toml`` declares the version ``dynamic`` and maturin
copies the crate's). Read from the installed package's metadata."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

__all__ = ["NOT_INSTALLED", "__version__"]

#: what the version reads as in a source tree that was never installed
NOT_INSTALLED = "(not installed)"

try:
    __version__ = version("hansa-lab")
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = NOT_INSTALLED
