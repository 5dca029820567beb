# meow: `make run` starts the service, `make test` runs every test. Needs only Python 3.11 or 3.12.
PYTHON ?= $(shell command -v python3.12 || command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test bench openapi clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/meow run

test: $(STAMP)
	$(BIN)/python -m pytest tests

openapi: $(STAMP)
	$(BIN)/meow openapi > openapi.yaml

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/api.py

clean:
	rm -rf $(VENV) var .pytest_cache .hypothesis
