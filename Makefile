# expectviz: common tasks.  `make test` is what CI runs (see .ci/run).
#
#   make venv      create .venv and install expectviz with its dev extras (redone when pyproject.toml changes)
#   make dot       make sure Graphviz's `dot` is installed (scripts/ensure-dot.sh)
#   make chromium  make sure Chromium is installed for the browser tests, else they skip (scripts/ensure-chromium.sh)
#   make lab       mark the lessons trusted (their stored diagrams show before they run), open them in JupyterLab
#   make app       serve the playground (notebooks/playground.ipynb, no code shown) with Voilà on 127.0.0.1
#   make test      lint, type-check, unit tests + doctests, then the notebooks under nbval
#   make bench     run benchmarks/bench_*.py
#   make notebooks re-run every notebook (the lessons, the playground) in place, as Restart & Run All, and strip metadata
#   make student   write build/student/: the lessons with blank answer cells, checks kept, worked solutions folded
#   make clean     remove .venv and caches

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := test

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

# jupyter refuses to run as root without --allow-root.
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)
# Lint only the folders that exist (an empty benchmarks/ is not in git).
LINT_PATHS := expectviz $(wildcard tests benchmarks)
PYTEST     := $(BIN)/pytest -p no:cacheprovider

.PHONY: venv dot chromium lab app test bench notebooks student clean

# ---- environment -------------------------------------------------------------------------------------------------

venv: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/pip || { echo "expectviz: creating $(VENV) with $(PYTHON) -m venv"; $(PYTHON) -m venv $(VENV); }
	$(BIN)/pip install --disable-pip-version-check -e ".[dev]"
	@touch $@

dot:
	@bash scripts/ensure-dot.sh

chromium:
	@bash scripts/ensure-chromium.sh

# ---- using it ----------------------------------------------------------------------------------------------------

lab: venv dot
	$(BIN)/jupyter trust notebooks/*.ipynb
	$(BIN)/jupyter lab notebooks/ $(ALLOW_ROOT)

# Prints `expectviz playground: http://127.0.0.1:PORT/` once the page answers; Ctrl-C stops it.
app: venv dot
	$(BIN)/python scripts/app.py

student: venv
	$(BIN)/python scripts/student_edition.py

# Each step is its own recipe line, so the first failing step stops `make test` with its exit status.
test: venv dot chromium
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/mypy expectviz
	$(PYTEST) tests expectviz --doctest-modules
	@if compgen -G "notebooks/*.ipynb" >/dev/null; then \
	    echo "$(PYTEST) --nbval notebooks --nbval-current-env --nbval-sanitize-with notebooks/sanitize.cfg"; \
	    $(PYTEST) --nbval notebooks --nbval-current-env --nbval-sanitize-with notebooks/sanitize.cfg; \
	else \
	    echo "expectviz: no notebooks/*.ipynb yet; skipping the nbval step"; \
	fi

bench: venv dot
	@shopt -s nullglob; \
	for script in benchmarks/bench_*.py; do \
	    echo "== $$script"; \
	    $(BIN)/python "$$script"; \
	done

notebooks: venv dot
	$(BIN)/python scripts/run_notebooks.py

# ---- tidying -----------------------------------------------------------------------------------------------------

clean:
	rm -rf $(VENV) build dist *.egg-info .mypy_cache .ruff_cache .pytest_cache .hypothesis
	find . -path ./.git -prune -o \( -name __pycache__ -o -name .ipynb_checkpoints \) -type d -prune -exec rm -rf {} +
