# The two commands: `make serve` builds and serves the site; `make test` runs every test.
# Each installs what it needs first (a virtualenv from requirements.txt, npm packages from package-lock.json).
# LESSON=NAME narrows build, serve, test and test-fast to one lesson (its folder, or the part after the number).
# `make test-fast` runs what needs no browser and no Jupyter kernel (the markers in pytest.ini).
# `make new NAME=softmax-basics [LANGUAGE=es|uk|en]` starts a lesson (English unless LANGUAGE says otherwise).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
LESSON ?=
ONE_LESSON := $(if $(LESSON),--lesson $(LESSON))
FAST := not browser and not engines and not jupyter
# test-fast spreads the whole suite's fast tests over one process per core (pytest-xdist); one lesson's few run in one.
SPREAD := $(if $(LESSON),,-n auto --dist worksteal)
NAME ?=
# LANGUAGE only as written on make's command line: gettext's LANGUAGE (en_US:en) is often in the environment.
NEW_LANGUAGE := $(if $(filter command line,$(origin LANGUAGE)),--language $(LANGUAGE))

.PHONY: setup build serve test test-fast new benchmark clean

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
	$(PY) -m pytest -m "$(FAST)" $(SPREAD) $(ONE_LESSON)

new: setup
	@test -n "$(NAME)" || { echo "make new NAME=<lowercase-words-with-dashes> [LANGUAGE=es|uk|en]" >&2; exit 2; }
	$(PY) build.py new $(NAME) $(NEW_LANGUAGE)

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
