# Holmes: `make run` serves the site, `make test` passes the tests, `make bench` prints figures.
# Each creates the virtual environment first if it is missing or pyproject.toml changed.

VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The first Python >= 3.11 on the PATH.
PYTHON ?= $(shell for p in python3.13 python3.12 python3.11 python3; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
	&& { echo $$p; break; }; done)

.PHONY: run up up-dev up-services test bench lint format clean

$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "Holmes needs Python 3.11 or newer on the PATH."; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py load_demo
	HOLMES_EMBEDDED_WAKER_SECONDS=0.5 $(BIN)/python manage.py runserver 127.0.0.1:8000

# The scaled set-up on this machine: PostgreSQL, Redis, an ASGI server with several workers,
# and a Celery worker, all from the Procfile. Starts the services if they are
# down (as .ci/run does) and creates the database if it is missing.
UP_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/holmes
UP_REDIS_URL ?= redis://127.0.0.1:6379/0
# Where the web and worker processes keep their counts for /metrics to sum; emptied at each
# start (counts of processes gone would be summed in otherwise).
UP_METRICS_DIR ?= /tmp/holmes-metrics
UP_ENV := PATH="$(CURDIR)/$(BIN):$$PATH" DATABASE_URL=$(UP_DATABASE_URL) REDIS_URL=$(UP_REDIS_URL) \
	HOLMES_DB_POOL=1 \
	HOLMES_PORT=$${HOLMES_PORT:-8000} HOLMES_WEB_WORKERS=$${HOLMES_WEB_WORKERS:-4} \
	HOLMES_CELERY_CONCURRENCY=$${HOLMES_CELERY_CONCURRENCY:-2} \
	PROMETHEUS_MULTIPROC_DIR=$(UP_METRICS_DIR)
# `make up` runs as production does: DEBUG off, a secret key of its own (made once, kept in
# UP_SECRET_KEY_FILE, readable by its owner only), the static files collected, no demo
# accounts. On loopback there is no TLS in front of it, so it does not redirect to https
# (set HOLMES_SSL_REDIRECT=1 behind a proxy that terminates TLS).
UP_SECRET_KEY_FILE ?= .holmes-up-secret-key
UP_PRODUCTION_ENV := HOLMES_DEBUG=0 HOLMES_SECRET_KEY="$$(cat $(UP_SECRET_KEY_FILE))" \
	HOLMES_ALLOWED_HOSTS=$${HOLMES_ALLOWED_HOSTS:-127.0.0.1,localhost} \
	HOLMES_SITE_URL=$${HOLMES_SITE_URL:-https://localhost} \
	HOLMES_SSL_REDIRECT=$${HOLMES_SSL_REDIRECT:-0}
# `make up-dev`: the same processes for development: DEBUG on, the demo accounts.
UP_DEVELOPMENT_ENV := HOLMES_DEBUG=1

up-services: $(STAMP)
	@pg_isready -q -h 127.0.0.1 || { echo "Starting PostgreSQL"; \
		pg_ctlcluster --skip-systemctl-redirect "$$(ls /etc/postgresql | sort -V | tail -n 1)" main start; }
	@redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 || { echo "Starting Redis"; \
		mkdir -p /var/lib/redis /var/log/redis; \
		redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
			--dir /var/lib/redis --logfile /var/log/redis/holmes.log; }
	@for _ in $$(seq 30); do pg_isready -q -h 127.0.0.1 && redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && break; sleep 1; done
	$(BIN)/python -m holmes_site.postgres ensure '$(UP_DATABASE_URL)'

up: up-services
	@test -s $(UP_SECRET_KEY_FILE) || { umask 077; \
		$(BIN)/python -c 'import secrets; print(secrets.token_urlsafe(50))' > $(UP_SECRET_KEY_FILE); }
	$(UP_ENV) $(UP_PRODUCTION_ENV) $(BIN)/python manage.py migrate --no-input
	$(UP_ENV) $(UP_PRODUCTION_ENV) $(BIN)/python manage.py collectstatic --no-input --clear -v 0
	$(UP_ENV) $(UP_PRODUCTION_ENV) $(BIN)/python manage.py check --deploy --fail-level ERROR
	rm -rf $(UP_METRICS_DIR) && mkdir -p $(UP_METRICS_DIR)
	$(UP_ENV) $(UP_PRODUCTION_ENV) $(BIN)/honcho start -f Procfile

up-dev: up-services
	$(UP_ENV) $(UP_DEVELOPMENT_ENV) $(BIN)/python manage.py migrate --no-input
	$(UP_ENV) $(UP_DEVELOPMENT_ENV) $(BIN)/python manage.py load_demo
	rm -rf $(UP_METRICS_DIR) && mkdir -p $(UP_METRICS_DIR)
	$(UP_ENV) $(UP_DEVELOPMENT_ENV) $(BIN)/honcho start -f Procfile

# The import contracts and ruff first (seconds), then the suite on SQLite and on
# PostgreSQL side by side (tests/both_databases.py).
test: $(STAMP)
	$(BIN)/lint-imports
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m tests.both_databases

bench: $(STAMP)
	$(BIN)/python -m bench

lint: $(STAMP)
	$(BIN)/lint-imports
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) db.sqlite3 db.sqlite3-wal db.sqlite3-shm staticfiles .pytest_cache
