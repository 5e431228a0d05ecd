# Everything a newcomer needs: `make run` and `make test` from a clean clone;
# `make` alone installs.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip --disable-pip-version-check -q
# what a rebuild depends on: .py files are not listed, the install is
# editable, so the tests always run the working tree's Python code; the
# solver's profile workload is, since the solver is compiled from its run
BUILD_INPUTS := setup.py pyproject.toml players/registry.py judge/seat_exec.c core/profile_workload.py $(wildcard core/*.pyx core/*.pxd)

.DEFAULT_GOAL := install
.PHONY: install bubblewrap chromium lint typecheck run test signature bench bench-solver bench-judge bench-clock bench-strength strength-report bench-oracle bench-rl bench-kaggle kaggle-book train lines solved-tables check-book reproduce reproduce-quick sdist clean

BUILD_TOOLS := "setuptools>=77" wheel "Cython>=3.0"

$(VENV)/bin/activate:
	$(PYTHON) -m venv $(VENV)

# Compiled in place (core/*.so) and installed editable: the clinea command and
# the clinea-NAME players land in .venv/bin, and the players/NAME launchers
# are linked for every built-in player. The ray extra comes along: the tests
# run the Ray backends on a real local Ray.
$(VENV)/.installed: $(VENV)/bin/activate $(BUILD_INPUTS)
	$(PIP) install $(BUILD_TOOLS)
	$(PIP) install --no-build-isolation -e ".[test,ray]"
	touch $@

# players/NAME for every player that can run here: one whose extra is not
# installed gets none (clinea play --list names the extra it needs)
WRITE_LAUNCHERS := $(PY) -c "from clinea.players.registry import write_launchers; write_launchers('players')"

install: $(VENV)/.installed bubblewrap
	@$(WRITE_LAUNCHERS)

# System tools the product and its tests use, from Debian's packages (not
# Python ones): $(call system_packages,COMMANDS,PACKAGES,WHAT IS LOST) installs
# PACKAGES where a COMMAND is missing, as root (as CI is) with apt; anyone
# else is told how.
define system_packages
	@missing=; for tool in $(1); do command -v $$tool >/dev/null || missing=yes; done; \
	[ -z "$$missing" ] || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2)) >/dev/null; \
	  else \
	    echo "$(1) not found: $(3); install them (sudo apt-get install $(2))"; \
	  fi; }
endef

# The judge confines every seat with bubblewrap (clinea.judge.sandbox);
# without it the judge still plays, with limits only.
bubblewrap:
	$(call system_packages,bwrap,bubblewrap,the judge's seats will not be isolated)

# The replay page's tests (tests/test_view_browser.py) drive Debian's
# chromium through its chromedriver: Selenium's own browser downloads do not
# work offline.
chromium:
	$(call system_packages,chromium chromedriver,chromium chromium-driver,the replay page's browser tests need them)

# The main job: our strongest player against random, 100 judged games on 7x6,
# colours and first move alternating, with the tally and Elo at the end
# (RUN_GAMES=4: fewer games, as the README's test runs it).
RUN_GAMES ?= 100
run: install
	$(VENV)/bin/clinea judge --player strong="players/strong --time-per-move 0.2" \
		--player random=players/random --iterations $(RUN_GAMES) --columns 7 --rows 6 --c 4 --p 21 \
		--concurrency 2 --seed 1

# The suite plays real games through the optional integrations, so the test
# set-up installs their extras too (make and make run stay without them).
# Only a change of the declared dependencies re-runs it: resolving
# kaggle-environments' tree takes minutes, rebuilding the core does not need it.
$(VENV)/.extras: pyproject.toml | $(VENV)/.installed
	$(PIP) install --no-build-isolation -e ".[test,ray,kaggle,openspiel,rl,serve]"
	@$(WRITE_LAUNCHERS)
	touch $@

# Style and habits, as CI checks them before the tests: ruff over the Python
# (pyflakes, bugbear, pyupgrade for 3.11, import order, simplify; settings in
# pyproject.toml), cython-lint over the core (it calls pycodestyle from PATH).
lint: install
	$(VENV)/bin/ruff check core judge players training solving arena bridges serve clinea benchmarks tests setup.py
	PATH="$(abspath $(VENV))/bin:$$PATH" $(VENV)/bin/cython-lint core/*.pyx core/*.pxd
	@$(MAKE) --no-print-directory typecheck

# mypy --strict (settings in pyproject.toml) over the package as it installs:
# the import names live under clinea.* while the folders are core/, players/,
# judge/, training/ and the rooms (setup.py's package_dir), which no type checker follows
# in a checkout. A tree of links in build/typecheck gives each folder its
# import name, so mypy reads the working files themselves (no install, no
# copy); findings are printed with the checkout's paths. The extras come
# first: the bridges are checked against the engines' own types.
TYPECHECK_TREE := build/typecheck
typecheck: install $(VENV)/.extras
	@rm -rf $(TYPECHECK_TREE) && mkdir -p $(TYPECHECK_TREE)/clinea
	@for path in clinea/*; do ln -s ../../../$$path $(TYPECHECK_TREE)/clinea/; done
	@for folder in core players judge training solving arena bridges serve; do ln -s ../../../$$folder $(TYPECHECK_TREE)/clinea/$$folder; done
	@cd $(TYPECHECK_TREE) && found=$$(../../$(PY) -m mypy --config-file ../../pyproject.toml --cache-dir ../mypy-cache -p clinea 2>&1); status=$$?; \
	  printf '%s\n' "$$found" | sed -E 's#^clinea/(core|players|judge|training|solving|arena|bridges|serve)/#\1/#'; exit $$status

# TESTS=tests/test_x.py: those files only; the 20 slowest tests are listed, to keep the suite short
test: install $(VENV)/.extras chromium
	$(PY) -m pytest -q --durations=20 $(TESTS)

# One number naming every search's tree (solver, alpha-beta, Monte Carlo on
# fixed positions and node budgets), as Stockfish's bench: a refactor that
# claims to change nothing quotes it before and after. VERBOSE=1: per part.
signature: install
	@$(VENV)/bin/clinea signature $(if $(VERBOSE),--verbose)

bench: install
	$(PY) benchmarks/playouts.py
	$(PY) benchmarks/players.py
	$(PY) benchmarks/search_speed.py
	$(PY) benchmarks/training.py
	$(PY) benchmarks/judge.py
	$(PY) benchmarks/driver.py
	$(PY) benchmarks/distributed.py
	$(PY) benchmarks/solver.py
	$(PY) benchmarks/view.py

# The solver alone, then Fhourstones' three positions and the empty 7x6 board
# on one and two threads (a few minutes); AGAINST="CMD" also
# times another solver on the same positions (see benchmarks/solver.py for
# the answer format it must print). The references, built in a folder of
# their own (docs/SOLVER.md), in a second run under their conditions (no
# book, tables reset per position): PONS=its benchmark c4solver,
# STEININGER="its c4 builds" (one per threads and mode), FHOURSTONES=its SearchGame.
bench-solver: install
	$(PY) benchmarks/solver.py --fhourstones --move-search --empty-board 1 2 $(if $(AGAINST),--against '$(AGAINST)')
	$(if $(PONS)$(STEININGER)$(FHOURSTONES),$(PY) benchmarks/solver.py --reset --no-book \
		--plot results/solver-times-references.png \
		$(if $(PONS),--pons '$(PONS)') $(if $(ROUNDS),--rounds $(ROUNDS)) $(if $(STEININGER),--steininger $(STEININGER)) \
		$(if $(FHOURSTONES),--fhourstones-program '$(FHOURSTONES)'))

# The judge alone, then the player driver's CPU per move; AGAINST=DIR also
# measures the clinea checkout in DIR (built there with make), interleaved
# run for run, with the ratios. The second run prints, among the rest, what
# stopping and resuming the seats costs a move (ponder off against --ponder).
bench-judge: install
	$(PY) benchmarks/judge.py $(if $(AGAINST),--against '$(AGAINST)')
	$(PY) benchmarks/judge.py --only none --in-process-games 0 --memory-games 0 --games 1000 \
		--busy 0 1 2 32 --sandbox auto off --same-core auto off --seat-starts 20 --fidelity-games 2000 \
		--stop-cost-games 1000 \
		$(if $(COURSE_JUDGE),--course-judge '$(COURSE_JUDGE)' --course-python '$(or $(COURSE_PYTHON),python2)')
	$(PY) benchmarks/driver.py $(if $(AGAINST),--against '$(AGAINST)')

# The reinforcement-learning environments' steps per second on 7x6 against
# PettingZoo's own connect_four_v3, in the same run: clinea's AEC and
# Gymnasium environments and the batched stepper (the rl extra comes with
# the test set-up's extras).
bench-rl: install $(VENV)/.extras
	$(PY) benchmarks/rl_env.py

# strong's answer times by its own clock and as the judge sees them, per
# board, quiet and beside busy loops, and the time forfeits of 2,000 quiet
# 7x6 games at --time-per-move 0.05 (CLOCK_OPTIONS: e.g. --games 10 --forfeit-games 200).
bench-clock: install
	$(PY) benchmarks/clock.py $(CLOCK_OPTIONS)

# strong at scale (benchmarks/strength.py): a perfect 7x6 player from the 49
# two-move openings with both colours; OpenSpiel's C++ MCTS (solver on) at
# equal CPU a move from paired openings, 100000 simulations on 9x8 c5 (40
# games, and 20 with strong at a tenth of MCTS's CPU), 10000 and 100000 on
# 14x12 c6 (20 each); the time-odds ladder
# (strong at 0.05 s against 0.1 s and 0.2 s, 100 games a rung on 14x12 c6).
# About three hours on two quiet cores, two games at once; resumable
# (the same command continues a stopped run). STRENGTH_OPTIONS: e.g. --quick
# (10-15 minutes), --ray ADDRESS. OpenSpiel is a peer, not a dependency:
# it goes into .venv only here.
bench-strength: install
	$(PIP) install "open_spiel>=1.5"
	$(PY) benchmarks/strength.py $(STRENGTH_OPTIONS)

# docs/STRENGTH.md and its ladder plot: the full set above, played into
# docs/strength-games.jsonl (resumably: only the games missing), then the
# report; with docs/strength-oracle.json (benchmarks/oracle.py --summary
# docs/strength-oracle.json) the oracle's mistake rates too.
STRENGTH_ORACLE := $(wildcard docs/strength-oracle.json)
strength-report: install
	$(PIP) install "open_spiel>=1.5"
	$(PY) benchmarks/strength.py --results docs/strength-games.jsonl --report docs/STRENGTH.md \
	  $(if $(STRENGTH_ORACLE),--oracle $(STRENGTH_ORACLE)) $(STRENGTH_OPTIONS)

# strong's moves held against the exact solver's labels (benchmarks/oracle/:
# 500 positions each of 9x8 c5 and 14x12 c6 from real games, and the six
# standard 7x6 files): the share that gives a win or a draw up at 0.1 s and
# 1 s a move (7x6: 0.05 s). Tens of minutes; ORACLE_OPTIONS="--sample 100"
# for a quick look.
bench-oracle: install
	$(PY) benchmarks/oracle.py $(ORACLE_OPTIONS)

# The seed's ten-hour genetic run (population 50, 150 generations), in about
# half a minute on two cores; writes results/genetic.{json,csv,png}.
# strong's own lines past the 7x6 opening book (players/strong_lines.py):
# the moves whose proof does not fit in a move's time on a busy machine,
# worked out once; minutes of CPU. The file ships with the package.
lines: install
	$(VENV)/bin/python -m clinea.players.strong_lines --out players/strong_lines_7x6.bin

# The 7x6 opening book `clinea export kaggle` embeds, from the solver
# (bridges/kaggle_book_7x6.txt).
kaggle-book: install
	$(PY) -m clinea.bridges.kaggle_book

# The exported Kaggle submission in Kaggle's ConnectX: 800 episodes against
# negamax and random, then strong (EPISODES=5 for a short run).
bench-kaggle: install $(VENV)/.extras
	$(PY) benchmarks/kaggle_export.py $(if $(EPISODES),--episodes $(EPISODES))

# The value of the empty board of every board in docs/solved/'s tables
# (c = 3, 4, 5 on the small boards, 7x6 over p, c = 4 up to columns + rows
# = 15): resumes a stopped run, inside a board too (SPLIT_DEPTH=N plies:
# each position a checkpoint), TIME_LIMIT seconds per board (default 60;
# past it a board is unknown), on Ray with RAY=1 (a local one) or
# RAY=ADDRESS, each solve on THREADS threads (all of a small machine's
# cores: THREADS=2 here); TABLES="c4-14 c4-15" for some of them. Days of
# CPU for c4-15.
solved-tables: install
	$(VENV)/bin/clinea solved-tables --time-limit $(or $(TIME_LIMIT),60) \
		$(if $(RAY),$(if $(filter 1,$(RAY)),--ray,--ray $(RAY))) $(if $(THREADS),--threads $(THREADS)) \
		$(if $(SPLIT_DEPTH),--split-depth $(SPLIT_DEPTH)) $(foreach table,$(TABLES),--table $(table))

# The shipped 7x6 opening book against our own solver: a random 1 % of its
# entries and every entry strong reads in a game from the empty board.
# About an hour of CPU; prints the entries checked, mismatches, time.
check-book: install
	$(VENV)/bin/clinea check-book --fraction $(or $(FRACTION),0.01)

train: install
	mkdir -p results
	$(VENV)/bin/clinea train genetic --population 50 --generations 150 --selection 2 --fitness 2 \
		--pmut 0.005 --pcross 0.4 --jobs 2 --seed 1 --out results/genetic

# Every table of the reports clinea comes from, three seeds each, into
# results/REPORT.md with its plots; the run prints its wall and CPU time at
# the end and writes it at the top of REPORT.md. QUICK=1 (or
# `make reproduce-quick`, what CI runs) is the same code with tiny settings,
# into results/quick/.
reproduce: install
	$(VENV)/bin/clinea reproduce --jobs 2 $(if $(QUICK),--quick --out results/quick,--out results)

reproduce-quick:
	$(MAKE) reproduce QUICK=1

# The source distribution and the wheel, in dist/.
sdist: install
	$(PY) -m build --no-isolation --outdir dist .

clean:
	rm -rf build dist *.egg-info core/*.c core/*.so $(VENV)
	find players -maxdepth 1 -type l -delete
