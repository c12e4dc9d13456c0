# Holmes: `make run` serves the site, `make test` passes the tests, `make bench` prints figures.
# Each creates the virtual environment first if it is missing or pyproject.toml changed.

VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The first Python >= 3.11 on the PATH.
PYTHON ?= $(shell for p in python3.13 python3.12 python3.11 python3; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
	&& { echo $$p; break; }; done)

.PHONY: run test bench lint format clean

$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "Holmes needs Python 3.11 or newer on the PATH."; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py runserver 127.0.0.1:8000

test: $(STAMP)
	$(BIN)/python -m pytest
	$(BIN)/python -m tests.on_postgres

bench: $(STAMP)
	$(BIN)/python -m bench

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) db.sqlite3 db.sqlite3-wal db.sqlite3-shm staticfiles .pytest_cache
