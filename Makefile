# The two commands: `make serve` builds and serves the site; `make test` runs every test.
# Each installs what it needs first (a virtualenv from requirements.txt, npm packages from package-lock.json).
# LESSON=NAME narrows build, serve, test and test-fast to one lesson (its folder, or the part after the number).
# `make test-fast` runs what needs no browser and no Jupyter kernel (the markers in pytest.ini).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
LESSON ?=
ONE_LESSON := $(if $(LESSON),--lesson $(LESSON))
FAST := not browser and not engines and not jupyter

.PHONY: setup build serve test test-fast benchmark clean

setup: $(VENV)/.installed node_modules/.installed

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

build: setup
	$(PY) build.py build $(ONE_LESSON)

serve: setup
	$(PY) build.py serve --port $(PORT) $(ONE_LESSON)

test: setup
	$(PY) -m ruff check .
	$(PY) -m pytest $(ONE_LESSON)

test-fast: setup
	$(PY) -m ruff check .
	$(PY) -m pytest -m "$(FAST)" $(ONE_LESSON)

# The startup benchmark on the course's own runtime, then against the peers (bare Pyodide, PyScript), then on a
# slow link, on a slow phone, and the Python worker's memory.
benchmark: setup
	$(PY) benchmarks/startup.py
	$(PY) benchmarks/peers.py
	$(PY) benchmarks/slow_link.py
	$(PY) benchmarks/slow_phone.py
	$(PY) benchmarks/memory.py

clean:
	rm -rf _site .cache
