# Everything a newcomer needs: `make run` and `make test` from a clean clone.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip --disable-pip-version-check -q

.PHONY: run test bench bench-solver train install clean

$(VENV)/bin/activate:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install setuptools wheel "Cython>=3.0"

# Re-run every time: pip builds in place under build/, so an unchanged tree
# only costs the packaging step, and a changed .pyx is always rebuilt.
install: $(VENV)/bin/activate
	$(PIP) install --no-build-isolation ".[test]"

# The main job: our strongest player against random, 100 judged games on 7x6,
# colours and first move alternating, with the tally and Elo at the end.
run: install
	$(VENV)/bin/clinea judge --player strong="players/strong --time-per-move 0.2" \
		--player random=players/random --iterations 100 --columns 7 --rows 6 --c 4 --p 21 \
		--concurrency 2 --seed 1

test: install
	$(PY) -m pytest -q

bench: install
	$(PY) benchmarks/playouts.py
	$(PY) benchmarks/players.py
	$(PY) benchmarks/training.py
	$(PY) benchmarks/judge.py
	$(PY) benchmarks/solver.py

# The solver alone; AGAINST="CMD" also times another solver on the same
# positions (see benchmarks/solver.py for the answer format it must print).
bench-solver: install
	$(PY) benchmarks/solver.py $(if $(AGAINST),--against '$(AGAINST)')

# The seed's ten-hour genetic run (population 50, 150 generations), in about
# half a minute on two cores; writes results/genetic.{json,csv,png}.
train: install
	mkdir -p results
	$(VENV)/bin/clinea train genetic --population 50 --generations 150 --selection 2 --fitness 2 \
		--pmut 0.005 --pcross 0.4 --jobs 2 --seed 1 --out results/genetic

clean:
	rm -rf build dist *.egg-info core/*.c core/*.so $(VENV)
