# Two commands do all the set-up: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test quick screenshots lock check-lock check lint typecheck unit browser-deps node-deps js-typecheck js-format js-test format bench clean

LOCK := requirements/build.txt requirements/run.txt requirements/test.txt
UV_VERSION := 0.13.9
PIP_LOCKED := $(BIN)/python -m pip install --quiet --require-hashes --no-deps

# Every Python dependency comes from the exact lock in requirements/ (see README,
# "Development"); a lock that is missing, corrupt or compiled from another pyproject.toml
# stops here with one line, before anything is installed.
check-lock:
	@$(PYTHON) requirements/lock.py check

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The app and its runtime dependencies; re-run when pyproject.toml or the lock changes.
$(VENV)/.installed: pyproject.toml $(LOCK) | $(BIN)/python
	@$(PYTHON) requirements/lock.py check
	$(PIP_LOCKED) -r requirements/build.txt
	$(PIP_LOCKED) -r requirements/run.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(LOCK) | $(BIN)/python
	@$(PYTHON) requirements/lock.py check
	$(PIP_LOCKED) -r requirements/build.txt
	$(PIP_LOCKED) -r requirements/test.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(VENV)/.installed $@

# Resolve again, on purpose: the newest versions pyproject.toml's ranges allow.
lock: | $(BIN)/python
	$(BIN)/python -m pip install --quiet uv==$(UV_VERSION)
	$(BIN)/python requirements/lock.py write $(BIN)/uv

run: $(VENV)/.installed
	$(BIN)/ginrummy serve --host $(HOST) --port $(PORT)

# Browser tests need Debian's Chromium; install it when missing and we may (root + apt).
browser-deps:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing Debian's chromium for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "warning: /usr/bin/chromium missing and cannot be installed; browser tests will fail"; fi; \
	fi

# The client's tooling needs Node and npm; install Debian's when missing and we may.
node-deps:
	@if ! command -v node >/dev/null || ! command -v npm >/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing Debian's nodejs and npm for the client's checks"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; \
	  else echo "error: node and npm are needed for the client's checks" >&2; exit 1; fi; \
	fi

# typescript, prettier, fast-check and axe-core (tests/browser/test_axe.py), exactly as
# package-lock.json pins them.
node_modules/.installed: package.json package-lock.json | node-deps
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# JSDoc types of the client (src/ginrummy/web/js), checked by tsc (tsconfig.json); the
# service worker and the computer's Web Worker have a worker's globals, not the page's
# (tsconfig.sw.json, tsconfig.worker.json).
js-typecheck: node_modules/.installed
	node_modules/.bin/tsc -p tsconfig.json
	node_modules/.bin/tsc -p tsconfig.sw.json
	node_modules/.bin/tsc -p tsconfig.worker.json

# The client's JavaScript is formatted by Prettier (pinned in package.json, settings in
# .prettierrc.json), as ruff formats the Python; `make format` rewrites both.
JS_SOURCES := "src/ginrummy/web/**/*.{js,mjs}" "tests/**/*.mjs"
js-format: node_modules/.installed
	node_modules/.bin/prettier --check --log-level=warn $(JS_SOURCES)

format: $(VENV)/.installed-test node_modules/.installed
	$(BIN)/ruff format src tests bench examples
	node_modules/.bin/prettier --write --log-level=warn $(JS_SOURCES)

# The client's unit and property tests (pytest runs them too, in tests/js/test_node.py).
js-test: node_modules/.installed
	node --test tests/js/

lint: $(VENV)/.installed-test
	$(BIN)/ruff check src tests bench examples
	$(BIN)/ruff format --check src tests bench examples

typecheck: $(VENV)/.installed-test
	$(BIN)/mypy

# The suite runs on every core (pytest-xdist); each test is in one layer by its cost,
# unit, system or browser (tests/conftest.py). PYTEST_WORKERS=1 runs it in one process.
# The whole suite's run after the engine's takes one worker more than there are cores:
# its browser and server tests wait (for sockets, servers, timers) about a third of
# their time, which the third worker of two cores fills (bench/RESULTS.md, "The
# suite's time"). The unit layer alone waits for nothing: one worker a core.
PYTEST_WORKERS ?= auto
PYTEST := $(BIN)/pytest -n $(PYTEST_WORKERS)
SUITE_WORKERS := $(if $(filter auto,$(PYTEST_WORKERS)),$(shell echo $$(( $$(nproc) + 1 ))),$(PYTEST_WORKERS))

# While working: the unit layer, the client's Node tests among it (at most 90 s).
quick: check-lock $(VENV)/.installed-test node_modules/.installed
	$(PYTEST) --dist load -m unit -q

# The whole suite, browser tests included, in two runs.
# 1. The engine's own tests (tests/engine) must cover the engine, every branch of it.
#    Coverage is measured there alone: tracing the engine's lines under every other test
#    (bots, arenas, conformance, the servers of the browser tests) made those tests up
#    to three times slower, and what they reach of the engine says nothing of its tests.
# 2. Everything else. A module's tests stay on one worker (--dist loadscope): a browser
#    module shares one Chromium. Modules are handed out in the suite's order, the costly
#    layers first (tests/conftest.py), not by their number of tests (xdist's default,
#    which left the long browser modules for last). The 15 slowest tests are listed
#    (what bounds the suite's time). pytest runs last so that its summary is the last
#    line CI prints.
ENGINE_COVERAGE := --cov=ginrummy.engine --cov-report=term-missing:skip-covered --cov-fail-under=100
unit: $(VENV)/.installed-test browser-deps node_modules/.installed
	$(PYTEST) --dist load -q tests/engine $(ENGINE_COVERAGE)
	$(BIN)/pytest -n $(SUITE_WORKERS) --dist loadscope --no-loadscope-reorder --durations=15 --ignore=tests/engine

# The static checks run side by side (each prints its output once done), then the suite.
test: check-lock
	$(MAKE) --no-print-directory -j4 --output-sync=target lint typecheck js-typecheck js-format
	$(MAKE) --no-print-directory unit

# The table views (device, room seat and spectator, chouette box, captain and partner,
# tournament) at 1366×768 and 390×844 into docs/screenshots/, taken while the
# accessibility check visits them (tests/browser/test_axe.py, SHOTS).
screenshots: $(VENV)/.installed-test browser-deps node_modules/.installed
	GINRUMMY_SCREENSHOTS=docs/screenshots $(BIN)/pytest -p no:cacheprovider -n 2 --dist loadscope tests/browser/test_axe.py -k "not planted" -q

bench: $(VENV)/.installed
	$(BIN)/ginrummy bench engine

clean:
	rm -rf $(VENV) node_modules .pytest_cache .mypy_cache .ruff_cache .coverage
