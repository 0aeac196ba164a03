VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed

.PHONY: run test bench clean browser

# Set-up: create the venv and install the package (editable) with dev + dask extras.
# Re-runs whenever pyproject.toml changes.
$(STAMP): pyproject.toml
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
	$(PY) -m pip install --upgrade pip
	$(PIP) install -e '.[dev,dask]'
	touch $(STAMP)

# Main job: plays/simulates a batch of games and prints a summary.
run: $(STAMP)
	$(VENV)/bin/hansa-lab main

# Browser tests (pytest -m browser) drive Debian's chromium with Playwright: install it with
# apt when it is missing (needs root, as on CI; Playwright's own browser download is never used).
browser:
	@command -v chromium >/dev/null 2>&1 || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium)

# Lint, type check and the whole test suite (2 xdist workers). One recipe: first failure stops it.
test: $(STAMP) browser
	$(VENV)/bin/ruff check hansa_lab tests
	$(VENV)/bin/mypy
	$(PY) -m pytest -n 2 tests

bench: $(STAMP)
	$(VENV)/bin/hansa-lab bench --players 3 --seconds 10 --json

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build dist *.egg-info
	find . -path ./.git -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
