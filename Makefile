# Two set-up commands for a fresh machine with Python 3.11+, pip and make:
#   make serve   builds the 13 rites of the 儀禮述註 in the package once (into ~/.cache/yili-kg) and serves
#                them on http://127.0.0.1:8000; EDITIONS=all serves the three editions under $(KANRIPO)
#   make test    installs the test extras, runs ruff and the suite
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# EDITIONS=all: the 述註, 注疏 and 鄭注 of the Kanripo corpus beside the repository (not in the package)
EDITIONS ?= shuzhu
KANRIPO ?= ../shared/corpus/kanripo
SERVE_INPUT := $(if $(filter all,$(EDITIONS)),--corpus $(KANRIPO),)

.PHONY: serve test install build bench editions rules clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip >/dev/null

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install -e .
	touch $@

$(VENV)/.test-installed: $(VENV)/.installed
	$(BIN)/python -m pip install -e '.[test]'
	touch $@

install: $(VENV)/.installed

serve: install
	$(BIN)/yili-kg serve $(SERVE_INPUT) --host $(HOST) --port $(PORT)

build: install
	$(BIN)/yili-kg build --out build

test: $(VENV)/.test-installed
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

$(VENV)/.bench-installed: $(VENV)/.test-installed
	$(BIN)/python -m pip install -e '.[test,bench]'
	touch $@

# the HTTP part needs a load generator: Debian's wrk (apt-get install wrk); without it, it is skipped
bench: $(VENV)/.bench-installed
	$(BIN)/python benchmarks/bench.py

clean:
	rm -rf $(VENV) build .pytest_cache

# how closely the three Kanripo editions agree, chapter by chapter (classic text, steps, toasts)
editions: $(VENV)/.installed
	$(BIN)/python benchmarks/editions.py

# every extraction rule, its citation, and how often it decided a field in each rite of the whole shared corpus
# (the three editions, the loose chapters); `yili-kg rules --format tsv` gives the counts by rite and the citations
rules: $(VENV)/.installed
	$(BIN)/yili-kg rules $(KANRIPO)/..
