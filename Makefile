# Darkroom: `make run` serves the site with a Celery worker and beat; `make test` runs the suite.
# Both need Python, PostgreSQL and Redis on localhost (or DATABASE_URL / REDIS_URL); `make test`
# also installs the test tools (chromium and node, from Debian's packages, when it may).
VENV   ?= .venv
PYTHON ?= python3
PY      = $(VENV)/bin/python
PORT   ?= 8000
# `make run` serves every route from one development server on PORT (Procfile.dev). `make run-proxy`
# runs production's set (the Procfile) instead: the proxy (deploy/nginx.conf.template) on PORT
# sends the requests that wait to `live` on LIVE_PORT and the others to `web` on WEB_PORT.
WEB_PORT  ?= 8001
LIVE_PORT ?= 8002
# Development asks for debug (and with it the development secret key) unless told otherwise:
# the settings' own defaults are production's (debug off, a secret required).
DEV     = DJANGO_DEBUG=$${DJANGO_DEBUG:-true}

.PHONY: lint types install test-tools nginx chromium node gettext messages valgrind pgbouncer redis-sentinel patroni test-pgbouncer ha services migrate run run-proxy test test-fast chaos lint-imports fuzz bench bots-strength bots-strength-merge bot-client soak lighthouse mutate mutate-before check clean

$(VENV)/.installed: pyproject.toml constraints.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -c constraints.txt -e '.[dev]'
	@touch $@

# What `make run` needs: the Python packages, nothing else.
install: $(VENV)/.installed

# What the suite needs beyond them: a browser (tests/web), node (the TypeScript contract test) and
# nginx (the tests of production's process set). `.ci/run` gets them through `make test`.
test-tools: install nginx chromium gettext pgbouncer redis-sentinel patroni tests/api/ts/node_modules/.installed

# Tools from Debian's packages, installed when missing and we may: $(call debian,command,package,without it)
define debian
	@if ! command -v $(1) >/dev/null; then \
	    if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	        echo "installing Debian's $(2)"; \
	        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2) >/dev/null; \
	    else echo "no $(1): $(3) (apt-get install $(2))"; fi; \
	fi
endef

# Past one machine (docs/operations.md#past-one-machine): PgBouncer in transaction mode in front of
# PostgreSQL (tests/faults/test_pgbouncer.py, `make test-pgbouncer`), Redis's Sentinels
# (tests/faults/test_sentinel.py), Patroni (below).
pgbouncer:
	$(call debian,pgbouncer,pgbouncer,tests/faults/test_pgbouncer.py will be skipped)

redis-sentinel:
	$(call debian,redis-sentinel,redis-sentinel,tests/faults/test_sentinel.py will be skipped)

# PostgreSQL's failover: Patroni on a three-member etcd (tests/faults/test_patroni.py), and the
# HAProxy that docker-compose.ha.yml puts in front of it (the same test's way through PgBouncer and
# HAProxy, tests/config/test_containers_ha.py).
patroni:
	$(call debian,patroni,patroni,tests/faults/test_patroni.py will be skipped)
	$(call debian,etcd,etcd-server,tests/faults/test_patroni.py will be skipped)
	$(call debian,haproxy,haproxy,tests/faults/test_patroni.py will skip its way through HAProxy)

# The proxy in front of `web` and `live` (the Procfile's `proxy:`, scripts/proxy.py): `make run-proxy`.
nginx:
	$(call debian,nginx,nginx,make run-proxy has no proxy)

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

# GNU gettext: `make messages` extracts and compiles with it, and tests/i18n extracts with it to
# find a message the catalogs lack. `make run` and the image need none (locale/*.mo are committed).
gettext:
	$(call debian,msgfmt,gettext,make messages cannot extract or compile and tests/i18n fails)

# The server's catalogs (docs/translating.md): every message the code marks, extracted into
# locale/<language>/LC_MESSAGES/django.po (new ones untranslated, changed ones fuzzy), then every
# catalog compiled to the .mo the server reads. Commit both. The web client's catalogs are its own
# (web/static/web/i18n/, docs/web.md).
LANGUAGES ?= fr de
messages: install gettext
	$(DEV) $(PY) manage.py makemessages $(addprefix -l ,$(LANGUAGES)) --no-obsolete --add-location=file \
	    -i 'tests/*' -i 'web/static/*' -i 'staticfiles/*' -i 'scripts/*' -i 'examples/*' -i 'build/*'
	$(DEV) $(PY) manage.py compilemessages $(addprefix -l ,$(LANGUAGES)) -i .venv

services: install
	@$(DEV) $(PY) manage.py check_services --create-db

migrate: services
	$(DEV) $(PY) manage.py migrate --no-input

# Three processes: one server for every route (streams too), one worker on every queue, one beat.
run: migrate
	@echo "serving http://localhost:$(PORT)/ from one development server (no proxy needed; make run-proxy runs production's processes behind nginx)"
	$(DEV) PORT=$(PORT) $(VENV)/bin/honcho start -f Procfile.dev

# Production's processes (the Procfile), behind nginx: what compose runs, on this machine.
run-proxy: migrate nginx
	@command -v nginx >/dev/null || { echo "make run-proxy needs nginx (apt-get install nginx); make run needs none"; exit 1; }
	$(DEV) PORT=$(PORT) WEB_PORT=$(WEB_PORT) LIVE_PORT=$(LIVE_PORT) $(VENV)/bin/honcho start -f Procfile

# The suite runs on TEST_WORKERS processes (pytest-xdist), a test file to a process: many tests
# wait on a worker, a server or a browser more than they compute. Files are handed out in the
# order tests/conftest.py collects them, what runs for minutes first (--no-loadscope-reorder:
# xdist's own order, by the number of tests in a file, hands the one-test files, the longest,
# out last).
TEST_WORKERS ?= 5
FAST_SKIP = not bench and not browser and not bench_smoke and not fault and not slow and not soak

# Lint first (ruff's rules and layout, import-linter's contracts and mypy's types, in pyproject.toml):
# seconds, and a mistake fails before the suite's minutes.
test: test-tools
	$(VENV)/bin/ruff check
	$(VENV)/bin/ruff format --check
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy
	@DJANGO_SETTINGS_MODULE=tests.settings $(PY) manage.py check_services
	$(VENV)/bin/pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# Everyday work: the suite without the browser, fault, image-build and benchmark-smoke tests.
test-fast: test-tools
	$(VENV)/bin/ruff check
	$(VENV)/bin/ruff format --check
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy
	@DJANGO_SETTINGS_MODULE=tests.settings $(PY) manage.py check_services
	$(VENV)/bin/pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder -m "$(FAST_SKIP)"

# The fault scenarios, bigger (CHAOS_SCALE times the games and outages), printing their figures
# (timer lateness, catch-up after an outage), each judged against its target: a printed
# judgement, not a failed test (but for the hostile receivers' lateness: tests/faults/figures.py).
# Not part of `make test`; niced: it shares the machine.
CHAOS_SCALE ?= 3
chaos: install
	@DJANGO_SETTINGS_MODULE=tests.settings $(PY) manage.py check_services
	@rm -f .chaos-report.txt
	-CHAOS_SCALE=$(CHAOS_SCALE) CHAOS_SAME_SECOND=200 CHAOS_REPORT=$(CURDIR)/.chaos-report.txt nice -n 5 $(VENV)/bin/pytest -m fault \
	    -o addopts="" -q tests/faults
	@echo; echo "chaos figures (CHAOS_SCALE=$(CHAOS_SCALE)), each beside its target:"; cat .chaos-report.txt
	@echo; if grep -q "NOT MET" .chaos-report.txt; then echo "some targets were NOT MET (above)"; \
	    else echo "every target above was met (a scenario that failed records no figures)"; fi

# The tests that touch the database (the games', API's and accounts'; or pytest's ARGS) through
# PgBouncer in transaction mode, in front of a private PostgreSQL that the script starts and removes
# (scripts/pgbouncer_tests.py). Not part of `make test`: the suite's minutes again.
test-pgbouncer: install pgbouncer
	@DJANGO_SETTINGS_MODULE=tests.settings $(PY) manage.py check_services
	$(PY) scripts/pgbouncer_tests.py $(ARGS)

# The scenarios past one machine (docs/operations.md#past-one-machine), each on servers of its own on
# loopback (PgBouncer, a streaming replica, Redis with a replica and three Sentinels, two Patroni
# nodes on three etcd members, two of each app process behind nginx), bigger by
# CHAOS_SCALE, printing their figures as `make chaos` does. Not part of `make test` (which runs them
# at scale 1 with the fault suite); niced: it shares the machine.
ha: install pgbouncer redis-sentinel patroni nginx
	@DJANGO_SETTINGS_MODULE=tests.settings $(PY) manage.py check_services
	@rm -f .ha-report.txt
	-CHAOS_SCALE=$(CHAOS_SCALE) CHAOS_REPORT=$(CURDIR)/.ha-report.txt nice -n 5 $(VENV)/bin/pytest -m fault -o addopts="" -q \
	    tests/faults/test_pgbouncer.py tests/faults/test_replica.py tests/faults/test_sentinel.py \
	    tests/faults/test_patroni.py tests/faults/test_two_of_each.py tests/faults/test_killed_behind_the_proxy.py
	@echo; echo "past one machine (CHAOS_SCALE=$(CHAOS_SCALE)), each figure beside its target:"; cat .ha-report.txt

lint-imports: install
	$(VENV)/bin/lint-imports

# What `make test` checks before the suite (and .pre-commit-config.yaml before a commit).
lint: install
	$(VENV)/bin/ruff check
	$(VENV)/bin/ruff format --check
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

# mypy with django-stubs on the engines and the play layer ([tool.mypy]; the Django plugin reads
# tests.settings, [tool.django-stubs]), as `make test` runs it.
types: install
	$(VENV)/bin/mypy

# schemathesis against a live server, every check, FUZZ_EXAMPLES per operation (`make test` runs 5).
fuzz: install
	@DJANGO_SETTINGS_MODULE=tests.settings $(PY) manage.py check_services
	FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-200} $(VENV)/bin/pytest -s -o addopts="" tests/api/test_fuzz.py tests/api/test_fuzz_accounts.py

# The benchmark counts the web server's instructions with valgrind (tests/bench/instructions.py).
valgrind:
	$(call debian,valgrind,valgrind,the benchmark's instruction counts will be n/a)

bench: test-tools valgrind
	@DJANGO_SETTINGS_MODULE=tests.settings $(PY) manage.py check_services
	$(VENV)/bin/pytest -m bench --benchmark-enable -o addopts="" tests

# Bot strength and the cost of a level-3 move (docs/bots.md): seeded bot-only matches on the
# engines. GAMES=n games per pairing (docs/bots.md's figures: 200), BUDGET=s CPU seconds per move.
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

# Lighthouse 12.2.x (13 wants Node 22) on the front page, the lobby and a game page, desktop and
# mobile, in Debian's chromium, against the server at LIGHTHOUSE_URL (`make run`'s by default):
# scores printed and in tests/lighthouse/reports/ (docs/web.md).
LIGHTHOUSE_URL ?= http://127.0.0.1:$(PORT)
tests/lighthouse/node_modules/.installed: tests/lighthouse/package.json tests/lighthouse/package-lock.json | node
	cd tests/lighthouse && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

lighthouse: install chromium tests/lighthouse/node_modules/.installed
	LIGHTHOUSE_URL=$(LIGHTHOUSE_URL) $(PY) scripts/lighthouse.py

# The soak (docs/bots.md): SOAK_GAMES bot-only games of every kind at once on the Procfile's
# processes for SOAK_SECONDS, watched over HTTP; prints its figures (and .soak-report.txt).
SOAK_SECONDS ?= 600
SOAK_GAMES ?= 50
soak: test-tools
	@DJANGO_SETTINGS_MODULE=tests.settings $(PY) manage.py check_services
	@rm -f .soak-report.txt
	SOAK_SECONDS=$(SOAK_SECONDS) SOAK_GAMES=$(SOAK_GAMES) SOAK_REPORT=$(CURDIR)/.soak-report.txt \
	    $(VENV)/bin/pytest -m soak -o addopts="" -q -s tests/soak; \
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
