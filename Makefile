VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed
#: pip's and cargo's output during set-up (named when a step fails)
SETUP_LOG := $(VENV)/setup.log

.PHONY: run check test test-full bench clean browser core-build lab docs

# Set-up: create the venv and install the package (editable) with the dev, dask, lab
# (JupyterLab) and docs (MkDocs) extras; the
# install builds the compiled rules core (core/, Rust) in release mode with maturin.
# Re-runs whenever pyproject.toml or the crate's manifest changes.
$(STAMP): pyproject.toml core/Cargo.toml
	@command -v cargo >/dev/null 2>&1 || { \
		echo "error: cargo not found: the compiled rules core (core/) needs a Rust toolchain." >&2; \
		echo "Install it with rustup (https://rustup.rs):" >&2; \
		echo "  curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh" >&2; \
		echo "or your system's packages (Debian/Ubuntu: apt-get install cargo rustc)," >&2; \
		echo "then run make again." >&2; \
		exit 1; }
	@command -v python3 >/dev/null 2>&1 || { echo "error: python3 not found (need Python >= 3.11)" >&2; exit 1; }
	@python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' || { echo "error: Python >= 3.11 required, found $$(python3 --version)" >&2; exit 1; }
	@if [ ! -x $(PY) ] || ! $(PY) -m pip --version >/dev/null 2>&1; then \
		rm -rf $(VENV); \
		python3 -m venv $(VENV) || { \
			rm -rf $(VENV); \
			echo "" >&2; \
			echo "error: 'python3 -m venv' failed." >&2; \
			echo "On Debian/Ubuntu install the venv module first:  apt-get install python3-venv" >&2; \
			exit 1; }; \
	fi
	@echo "set-up: upgrading pip in $(VENV)/ (log: $(SETUP_LOG))"
	@$(PY) -m pip install --upgrade pip > $(SETUP_LOG) 2>&1 || \
		{ tail -n 30 $(SETUP_LOG) >&2; echo "error: pip upgrade failed; the whole output is in $(SETUP_LOG)" >&2; exit 1; }
	@echo "set-up: installing hansa_lab and its extras, building the Rust core (a few minutes the first time)"
	@$(PIP) install -e '.[dev,dask,lab,docs]' >> $(SETUP_LOG) 2>&1 || \
		{ tail -n 30 $(SETUP_LOG) >&2; echo "error: the install failed; the whole output is in $(SETUP_LOG)" >&2; exit 1; }
	@echo "set-up: done"
	@touch $(STAMP)

# Main job: plays/simulates a batch of games and prints a summary. Not echoed: its first
# line says what it runs (from a fresh clone, the set-up's three lines come before it).
run: $(STAMP)
	@$(VENV)/bin/hansa-lab main

# JupyterLab on notebooks/ (127.0.0.1; open the http://127.0.0.1:8888/lab?token=... URL it
# prints, Ctrl-C stops it). On a remote machine: make lab LAB_ARGS=--no-browser, then
# ssh -L 8888:127.0.0.1:8888 to it.
lab: $(STAMP)
	@echo "JupyterLab on notebooks/ — open the URL with the token printed below (Ctrl-C stops it)"
	$(VENV)/bin/jupyter lab --ServerApp.root_dir=notebooks --ServerApp.ip=127.0.0.1 \
		$(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_ARGS)

# The documentation site (mkdocs.yml, pages under docs/, API reference from the
# docstrings) built offline into site/; `make test` builds it with warnings as errors.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir site
	@echo "site/index.html"

# Browser tests (pytest -m browser) drive Debian's chromium with Playwright: install it with
# apt when it is missing (needs root, as on CI; Playwright's own browser download is never used).
browser:
	@command -v chromium >/dev/null 2>&1 || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium)

# Before every commit (under 3 minutes on 2 idle cores): lint, type check, the crate's
# formatting, and the fast tier of the tests: neither slow, browser nor notebook tests, nor
# the default tier's heavy ones (tests/conftest.py HEAVY). make test runs all of them.
check: $(STAMP) core-build
	$(VENV)/bin/ruff check hansa_lab tests
	$(VENV)/bin/mypy
	cd core && cargo fmt --check
	$(PY) -m pytest -n 2 -q -m "not slow and not browser and not notebooks and not heavy" tests

# Lint, type check, the crate's own checks (format, clippy with and without the Python
# bindings, cargo test), then the whole test suite (2 xdist workers) with the slow tier in
# its bounded form (tests/tiers.py; make test-full runs it whole). First failure stops it.
# The extension module is rebuilt first when the crate's sources changed since the install.
test: $(STAMP) browser core-build
	$(VENV)/bin/ruff check hansa_lab tests
	$(VENV)/bin/mypy
	cd core && cargo fmt --check
	cd core && cargo clippy --all-targets -- -D warnings
	cd core && PYO3_PYTHON=$(abspath $(PY)) cargo clippy --features python -- -D warnings
	cd core && cargo test
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir site --quiet
	HANSA_LAB_SLOW=bounded $(PY) -m pytest -n 2 tests

# The same, with the slow tier at its full size (every parity chunk, fault case and
# repetition; tests/tiers.py): about an hour more of CPU.
test-full: $(STAMP) browser core-build
	HANSA_LAB_SLOW=full $(PY) -m pytest -n 2 tests

# Rebuild hansa_lab._core (release) when a Rust source is newer than the built module.
core-build: $(STAMP)
	@if [ -n "$$(find core/src core/Cargo.toml -newer $(STAMP) 2>/dev/null | head -1)" ]; then \
		echo "core/ changed since the install: rebuilding hansa_lab._core"; \
		$(VENV)/bin/maturin develop --release --quiet && touch $(STAMP); \
	fi

bench: $(STAMP)
	$(VENV)/bin/hansa-lab bench --engine both --players 3 --seconds 10 --json

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build dist *.egg-info core/target
	rm -f hansa_lab/_core*.so
	find . -path ./.git -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
