# Everything a fresh machine needs: Python 3.11+ and make. Each target builds .venv when it is
# missing (or when pyproject.toml changed) and installs the project into it.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
STORE ?= regiment.db

.PHONY: test demo bench bench-ab lint golden arena clean browser postgres node peer faults load messages diagrams

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "regiment needs Python 3.11 or newer")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@# pip and setuptools talk a lot: their words go to a log, shown only when they fail
	@$(BIN)/python -m pip install --quiet --upgrade pip >$(VENV)/install.log 2>&1 || \
	  { cat $(VENV)/install.log; exit 1; }
	@echo "installing regiment and its libraries into $(VENV) (log: $(VENV)/install.log)"
	@$(BIN)/python -m pip install --quiet -e '.[test,bench,rl,openspiel]' >>$(VENV)/install.log 2>&1 || \
	  { cat $(VENV)/install.log; exit 1; }
	@touch $(STAMP)

test: $(STAMP) lint browser postgres node
	$(BIN)/python -m pytest

# What a test needs from Debian, installed when it is missing and apt-get can be used:
# $(call debian,SKIP-VARIABLE,CHECK,PACKAGES,WHAT FOR). With SKIP-VARIABLE set, or without
# apt-get, nothing is installed (the tests that need it then skip, or fail saying so).
define debian
	@if [ -z "$$$(1)" ] && ! { $(2); } >/dev/null 2>&1; then \
	  if command -v apt-get >/dev/null 2>&1; then \
	    SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	    echo "installing Debian's $(3) for $(4)"; \
	    $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	      $$SUDO apt-get install -y -qq $(3) >/dev/null; \
	  else \
	    echo "no $(3) and no apt-get: $(4) will fail ($(1)=1 skips it)"; \
	  fi; \
	fi
endef

# The store and server tests run a real PostgreSQL server, which the test fixtures start in a
# temporary directory (tests/postgres.py).
postgres:
	$(call debian,REGIMENT_NO_POSTGRES,command -v initdb || ls /usr/lib/postgresql/*/bin/initdb,postgresql,the store and server tests)

# A client in another language (examples/client.mjs) is tested with Node.js.
node:
	$(call debian,REGIMENT_NO_NODE,command -v node,nodejs,the other-language client's test)

# The peer make bench measures the game server beside: boardgame.io, from the npm registry,
# at the version bench/bgio/package-lock.json pins (npm ci: that tree exactly).
peer: node
	@test -d bench/bgio/node_modules/boardgame.io || npm ci --prefix bench/bgio --no-audit --no-fund

# The replay page is tested in headless Chromium.
browser:
	$(call debian,REGIMENT_NO_BROWSER,command -v chromium && command -v chromedriver,chromium chromium-driver,the browser test)

demo: $(STAMP)
	$(BIN)/regiment demo --store $(STORE)

# The bytecode compiled first, as pip compiles a regular install's: an editable install run
# under PYTHONDONTWRITEBYTECODE (as the shells of these machines set it) compiled every
# module at every start, 0.17 s of each command's start-up, and that start-up is in the
# figures (simulate's 600 games on two processes, measured: issue 29 item 6).
bench: $(STAMP) postgres browser peer
	@$(BIN)/python -m compileall -q core phases store tools >/dev/null
	$(BIN)/python bench/bench.py

# The bench of revision REV (default: the last commit) beside the working tree, interleaved.
REV ?= HEAD
bench-ab: $(STAMP)
	$(BIN)/python bench/ab.py $(REV) --rounds 3

# 200 games from simulated clients against two server processes on PostgreSQL, one of them
# killed and restarted during the run: steps/s, step latency, and every game verified.
load: $(STAMP) postgres
	$(BIN)/python -m tests.load

# The narration's Russian catalogues brought up to date with the code (Babel): new messages
# are added untranslated, and what is left to translate or fix is listed.
messages: $(STAMP)
	$(BIN)/python -m regiment.tools.messages

# docs/machine.md: each preset's turn as a Mermaid diagram, drawn from its live machine.
diagrams: $(STAMP)
	$(BIN)/python -m regiment.tools.machine

# The long round of the fault suite (make test runs a short one): prints its figures.
faults: $(STAMP)
	$(BIN)/python -m tests.faults 25

golden: $(STAMP)
	REGIMENT_GOLDEN=update $(BIN)/python -m pytest -q tests/test_golden.py
	git --no-pager diff --stat -- tests/golden

# mypy reads the four folders as the package they are installed as (regiment.core, ...), through
# a tree of links: the editable install's import hook is invisible to it, and without the tree
# every import between the folders would be an unchecked Any.
TYPES := .mypy-src
lint: $(STAMP)
	$(BIN)/ruff check core phases store tools bot rl tests bench
	@mkdir -p $(TYPES)/regiment && touch $(TYPES)/regiment/__init__.py
	@for d in core phases store tools bot rl; do ln -sfn ../../$$d $(TYPES)/regiment/$$d; done
	cd $(TYPES) && ../$(BIN)/mypy --config-file ../pyproject.toml -p regiment
	@# the engine itself (the kernel and the rulebooks) is held to mypy's strict mode
	cd $(TYPES) && ../$(BIN)/mypy --config-file ../pyproject.toml --strict -p regiment.core \
	  -p regiment.phases

# OpenSpiel's MCTS against the bundled rule bot, through the registered game (the README's
# figures): GAMES games on SCENARIO, SIMS simulations a move.
SCENARIO ?= knights_flank
GAMES ?= 20
SIMS ?= 100
arena: $(STAMP)
	$(BIN)/python -m regiment.rl.arena $(SCENARIO) --games $(GAMES) --simulations $(SIMS)

clean:
	rm -rf $(VENV) $(TYPES) .pytest_cache .ruff_cache .mypy_cache .hypothesis $(STORE) $(STORE)-wal $(STORE)-shm \
	  $(STORE).secrets $(STORE).locks
