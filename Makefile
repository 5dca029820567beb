# meow: `make run` starts the service, `make test` runs every test. Needs only Python 3.11 or 3.12.
# the first interpreter that really runs and is 3.11 or 3.12 (pyenv shims may exist for others)
PYTHON ?= $(shell for p in python3.12 python3.11 python3; do \
	if $$p -c 'import sys; assert sys.version_info[:2] in ((3, 11), (3, 12))' >/dev/null 2>&1; then \
	command -v $$p; break; fi; done)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# `make test` runs on every core (pytest-xdist, docs/testing.md); TEST_JOBS=1 runs it in one process;
# PYTEST_ARGS adds pytest options (e.g. PYTEST_ARGS=--junitxml=/tmp/junit.xml for the per-folder budget)
PYTEST_ARGS ?=
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# (-n only when pytest-xdist is installed: the stamp installs it, an older .venv may lack it)
XDIST = $(shell $(BIN)/python -c 'import xdist' >/dev/null 2>&1 && echo "-n $(TEST_JOBS) --dist loadgroup")

# `make check`: the contributor's loop (docs/testing.md: make check): the same lint and type check, then
# the tests that need no live stack (no gunicorn, worker, browser, Node.js or Redis Cluster) and are not
# marked `deep`; under two minutes on 2 cores. `make test` still runs everything.
CHECK_TESTS ?= tests/unit tests/audit tests/differential $(wildcard tests/test_*.py)

.PHONY: run test check bench openapi screenshots clean

$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "meow needs Python 3.11 or 3.12 on PATH"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/meow run

test: $(STAMP)
	$(BIN)/ruff check service workers tests bench tools  # lint first: fails fast with ruff's own findings (docs/testing.md: Lint)
	$(BIN)/mypy  # then the type check of service and workers, configured in pyproject.toml (docs/testing.md: Type check)
	$(BIN)/python -m tools.chromium  # the browser tests' Chromium: found, installed with apt (as root), or a message saying what to install
	$(BIN)/python -m tools.axe  # the accessibility check's axe-core (pinned): found, installed with npm, or a message saying what to install
	$(BIN)/python -m tools.nginx  # the slow-client tests' nginx (deploy/nginx in front of the API): found, installed with apt (as root), or a message saying what to install
	$(BIN)/python -m tools.node  # the TypeScript client check's Node.js and npm (found, or installed with apt as root, or a message) and its pinned npm packages (tests/typescript/node_modules, once)
	$(BIN)/python -m pytest tests $(XDIST) --durations=15 $(PYTEST_ARGS)

check: $(STAMP)
	$(BIN)/ruff check service workers tests bench tools
	$(BIN)/mypy
	$(BIN)/python -m pytest $(CHECK_TESTS) -m "not deep" $(XDIST) --durations=10 $(PYTEST_ARGS)

openapi: $(STAMP)
	$(BIN)/meow openapi > openapi.yaml

screenshots: $(STAMP)
	$(BIN)/python -m tools.chromium
	$(BIN)/python -m tools.screenshots

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/api.py

clean:
	rm -rf $(VENV) var .pytest_cache .hypothesis .mypy_cache
