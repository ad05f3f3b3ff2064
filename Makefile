# Darkroom: `make run` serves the API with a Celery worker and beat; `make test` runs the suite.
# Both need PostgreSQL and Redis on localhost (or DATABASE_URL / REDIS_URL).
VENV   ?= .venv
PYTHON ?= python3
PY      = $(VENV)/bin/python
PORT   ?= 8000
# `make run` serves on PORT through the proxy (deploy/nginx.conf.template), which sends the
# requests that wait to `live` on LIVE_PORT and the others to `web` on WEB_PORT.
WEB_PORT  ?= 8001
LIVE_PORT ?= 8002
# Development asks for debug (and with it the development secret key) unless told otherwise:
# the settings' own defaults are production's (debug off, a secret required).
DEV     = DJANGO_DEBUG=$${DJANGO_DEBUG:-true}

.PHONY: install nginx chromium node valgrind services migrate run test test-fast chaos lint-imports fuzz bench bots-strength bots-strength-merge bot-client soak mutate mutate-before check clean

$(VENV)/.installed: pyproject.toml constraints.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -c constraints.txt -e '.[dev]'
	@touch $@

install: $(VENV)/.installed nginx chromium tests/api/ts/node_modules/.installed

# Tools from Debian's packages, installed when missing and we may: $(call debian,command,package,without it)
define debian
	@if ! command -v $(1) >/dev/null; then \
	    if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	        echo "installing Debian's $(2)"; \
	        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2) >/dev/null; \
	    else echo "no $(1): $(3) (apt-get install $(2))"; fi; \
	fi
endef

# The proxy in front of `web` and `live` (the Procfile's `proxy:`, scripts/proxy.py).
nginx:
	$(call debian,nginx,nginx,make run has no proxy)

# The browser tests (tests/web) drive Debian's chromium: Playwright cannot fetch its own build here.
# Most run in its headless shell, as Playwright runs headless tests (tests/web/conftest.py).
chromium:
	$(call debian,chromium,chromium,tests/web will be skipped)
	$(call debian,chromium-headless-shell,chromium-headless-shell,tests/web run in the full chromium)

# The TypeScript contract test (tests/api/test_typescript_client.py): Debian's node and npm, then the
# pinned openapi-typescript, openapi-fetch and tsc from tests/api/ts/package-lock.json.
node:
	$(call debian,node,nodejs,tests/api/test_typescript_client.py will fail)
	$(call debian,npm,npm,tests/api/test_typescript_client.py will fail)

tests/api/ts/node_modules/.installed: tests/api/ts/package.json tests/api/ts/package-lock.json | node
	cd tests/api/ts && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

services: install
	@$(DEV) $(PY) manage.py check_services --create-db

migrate: services
	$(DEV) $(PY) manage.py migrate --no-input

run: migrate
	$(DEV) PORT=$(PORT) WEB_PORT=$(WEB_PORT) LIVE_PORT=$(LIVE_PORT) $(VENV)/bin/honcho start -f Procfile

# The suite runs on TEST_WORKERS processes (pytest-xdist), a test file to a process: many tests
# wait on a worker, a server or a browser more than they compute. Files are handed out in the
# order tests/conftest.py collects them, what runs for minutes first (--no-loadscope-reorder:
# xdist's own order, by the number of tests in a file, hands the one-test files, the longest,
# out last).
TEST_WORKERS ?= 5
FAST_SKIP = not bench and not browser and not bench_smoke and not fault and not slow and not soak

# The layers first (import-linter's contracts in pyproject.toml): seconds, and a broken one fails
# before the suite's minutes.
test: install
	$(VENV)/bin/lint-imports
	@DJANGO_SETTINGS_MODULE=tests.settings $(PY) manage.py check_services
	$(VENV)/bin/pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# Everyday work: the suite without the browser, fault, image-build and benchmark-smoke tests.
test-fast: install
	$(VENV)/bin/lint-imports
	@DJANGO_SETTINGS_MODULE=tests.settings $(PY) manage.py check_services
	$(VENV)/bin/pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder -m "$(FAST_SKIP)"

# The fault scenarios, bigger (CHAOS_SCALE times the games and outages), printing their figures
# (timer lateness, catch-up after an outage), each judged against issue 30's target: a printed
# judgement, never a failed test. Not part of `make test`; niced: it shares the machine.
CHAOS_SCALE ?= 3
chaos: install
	@DJANGO_SETTINGS_MODULE=tests.settings $(PY) manage.py check_services
	@rm -f .chaos-report.txt
	-CHAOS_SCALE=$(CHAOS_SCALE) CHAOS_SAME_SECOND=200 CHAOS_REPORT=$(CURDIR)/.chaos-report.txt nice -n 5 $(VENV)/bin/pytest -m fault \
	    -p no:randomly -o addopts="" -q tests/faults
	@echo; echo "chaos figures (CHAOS_SCALE=$(CHAOS_SCALE)), each beside issue 30's target:"; cat .chaos-report.txt
	@echo; if grep -q "NOT MET" .chaos-report.txt; then echo "some targets were NOT MET (above)"; \
	    else echo "every target above was met (a scenario that failed records no figures)"; fi

lint-imports: install
	$(VENV)/bin/lint-imports

# schemathesis against a live server, every check, FUZZ_EXAMPLES per operation (`make test` runs 5).
fuzz: install
	@DJANGO_SETTINGS_MODULE=tests.settings $(PY) manage.py check_services
	FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-200} $(VENV)/bin/pytest -p no:randomly -s -o addopts="" tests/api/test_fuzz.py tests/api/test_fuzz_accounts.py

# The benchmark counts the web server's instructions with valgrind (tests/bench/instructions.py).
valgrind:
	$(call debian,valgrind,valgrind,the benchmark's instruction counts will be n/a)

bench: install valgrind
	@DJANGO_SETTINGS_MODULE=tests.settings $(PY) manage.py check_services
	$(VENV)/bin/pytest -m bench --benchmark-enable -p no:randomly -o addopts="" tests

# Bot strength and the cost of a level-3 move (docs/bots.md): seeded bot-only matches on the
# engines. GAMES=n games per pairing (the issue's figure: 200), BUDGET=s CPU seconds per move.
bots-strength: install
	nice $(PY) scripts/bots_strength.py

# The JSON of bots-strength parts (PART=k/n OUT=file, docs/bots.md) pooled into one report.
bots-strength-merge: install
	$(PY) scripts/bots_strength.py merge $(PARTS)

# The example third-party bot's typed client (examples/http_bot.py, docs/bots.md), generated from a
# running server's document (`make run`) into examples/darkroom_client/, which git ignores.
SERVER ?= http://localhost:$(PORT)
bot-client: install
	$(PY) examples/http_bot.py generate --server $(SERVER)

# The soak (docs/bots.md): SOAK_GAMES bot-only games of every kind at once on the Procfile's
# processes for SOAK_SECONDS, watched over HTTP; prints its figures (and .soak-report.txt).
SOAK_SECONDS ?= 600
SOAK_GAMES ?= 50
soak: install
	@DJANGO_SETTINGS_MODULE=tests.settings $(PY) manage.py check_services
	@rm -f .soak-report.txt
	SOAK_SECONDS=$(SOAK_SECONDS) SOAK_GAMES=$(SOAK_GAMES) SOAK_REPORT=$(CURDIR)/.soak-report.txt \
	    $(VENV)/bin/pytest -m soak -p no:randomly -o addopts="" -q -s tests/soak; \
	    status=$$?; echo; echo "soak figures:"; cat .soak-report.txt; exit $$status

# Mutation testing of the core, file by file against each file's own tests (not part of `make test`;
# docs/mutation.md). MUTATE_FILES=games/play/store.py limits it; `make mutate-before` leaves out the
# tests written to kill mutants. Niced: it shares the machine.
MUTATE_DB ?= postgres://postgres@127.0.0.1:5432/darkroom_mutation
mutate mutate-before: install
	$(PY) -m pip install -q -c constraints.txt -e '.[dev,mutation]'
	@DJANGO_SETTINGS_MODULE=tests.settings $(PY) manage.py check_services
	rm -f $(if $(filter mutate-before,$@),.mutmut-results-before.txt,.mutmut-results.txt)
	DATABASE_URL=$${DATABASE_URL:-$(MUTATE_DB)} nice -n 10 $(PY) scripts/mutation_run.py --fresh \
	    $(if $(filter mutate-before,$@),--before) $(MUTATE_FILES)
	$(PY) scripts/mutation_summary.py $(if $(filter mutate-before,$@),.mutmut-results-before.txt,.mutmut-results.txt)
	DATABASE_URL=$${DATABASE_URL:-$(MUTATE_DB)} $(PY) scripts/sql_mutants.py

check: install
	$(DEV) $(PY) manage.py check
	$(DEV) $(PY) manage.py makemigrations --check --dry-run

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .benchmarks mutants .mutation .mutmut-* tests/api/ts/node_modules tests/api/ts/dist
