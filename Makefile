# The two commands: `make serve` builds and serves the site; `make test` runs every test.
# Each installs what it needs first (a virtualenv from requirements.txt, npm packages from package-lock.json).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000

.PHONY: setup build serve test benchmark clean

setup: $(VENV)/.installed node_modules/.installed

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

build: setup
	$(PY) build.py build

serve: setup
	$(PY) build.py serve --port $(PORT)

test: setup
	$(PY) -m ruff check .
	$(PY) -m pytest

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
