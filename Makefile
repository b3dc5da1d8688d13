# Cairn - play-by-web mountaineering games.
#
#   make run    install what is missing, build, serve on 127.0.0.1:8080
#   make test   install what is missing, build (release, and with sanitizers), run every test
#               (the PostgreSQL ones on a throwaway cluster, stopped afterwards)
#   make bench  print engine and server figures beside their targets, keep them in
#               tests/bench/history.log and call out any more than 20% worse than before
#
# Packages come from Debian (apt) when missing; nothing else is downloaded.
# Compiler flags are read from pkg-config in a sub-make, after `deps` has run,
# so a fresh machine works in one command.

PACKAGES := build-essential pkg-config libmicrohttpd-dev libsqlite3-dev libjansson-dev libyaml-dev \
            libcurl4-openssl-dev libcmocka-dev libsodium-dev
# zlib: gzip for large JSON answers (api/representation.c).
PACKAGES += zlib1g-dev
# xxHash: the entity tags of answers (api/representation.c), hashed at
# memory speed where BLAKE2b cost a tenth of a view's CPU (issue 22).
PACKAGES += libxxhash-dev
# The PostgreSQL backend (libpq), and the server its tests start a throwaway
# cluster of (tests/db/pg_cluster.sh, around run-tests in build.mk).
PACKAGES += libpq-dev postgresql
# The balancer of the local cluster (make cluster, and its smoke run in make test).
PACKAGES += haproxy
# libFuzzer (make fuzz, and the short fuzz run at the end of make test).
PACKAGES += clang libclang-rt-14-dev

# Compile jobs for the builds (the tests themselves run one at a time: each
# API test starts its own server, and their timeouts assume a quiet machine).
JOBS     ?= $(shell nproc 2>/dev/null || echo 1)
PORT     ?= 8080
HOST     ?= 127.0.0.1
DATA_DIR ?= data

.PHONY: all run test bench bots deps bench-deps build server tests clean format check-format test-web test-examples \
        test-contract

all: build

# make bench also measures one move's path inside the server with gdb (tests/bench/move_path.sh).
BENCH_PACKAGES := gdb jq curl

deps:
	@$(call install_missing,$(PACKAGES))

bench-deps:
	@$(call install_missing,$(PACKAGES) $(BENCH_PACKAGES))

define install_missing
missing=""; for p in $(1); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	$(apt_install_missing)
endef

# The same for "command:package" pairs: the package when the command is
# not on the PATH (node may come from elsewhere than Debian's nodejs).
define install_for_commands
missing=""; for cp in $(1); do \
	  command -v $${cp%%:*} >/dev/null 2>&1 || missing="$$missing $${cp#*:}"; done; \
	$(apt_install_missing)
endef

define apt_install_missing
if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi; \
	  $$sudo apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -q --no-install-recommends $$missing; \
	fi
endef

# npm ci in folder $(1) when its lock file is newer than what was installed.
define npm_ci_if_stale
if [ ! -f $(1)/node_modules/.package-lock.json ] || \
	  [ $(1)/package-lock.json -nt $(1)/node_modules/.package-lock.json ]; then \
	  cd $(1) && npm ci --no-audit --no-fund; fi
endef

build: deps
	@$(MAKE) --no-print-directory -j$(JOBS) -f build.mk MODE=release server

run: build
	@mkdir -p $(DATA_DIR)
	./build/release/cairn --host $(HOST) --port $(PORT) --db $(DATA_DIR)/cairn.db

test: deps
	@$(MAKE) --no-print-directory -s -j$(JOBS) -f build.mk MODE=release server property-tests
	@$(MAKE) --no-print-directory -s -j$(JOBS) -f build.mk MODE=test tests
	@if command -v clang-format >/dev/null; then $(MAKE) --no-print-directory check-format; \
	  else echo "clang-format not installed: formatting not checked"; fi
	@$(MAKE) --no-print-directory -s -f build.mk MODE=test run-tests
	@CAIRN_CLUSTER_PORT=18600 CAIRN_CLUSTER_SMOKE=1 sh docker/local-cluster.sh
	@$(MAKE) --no-print-directory -s -j$(JOBS) -f build.mk MODE=fuzz CC=clang fuzzers
	@$(MAKE) --no-print-directory -s -f build.mk MODE=fuzz CC=clang fuzz-short
	@$(MAKE) --no-print-directory test-web
	@$(MAKE) --no-print-directory test-examples
	@$(MAKE) --no-print-directory test-contract

# A cluster on this machine to play on: a throwaway PostgreSQL, two nodes and
# HAProxy in front at http://127.0.0.1:8080/ (docker/local-cluster.sh);
# Ctrl-C stops it and removes the database.
.PHONY: cluster
cluster: deps
	@$(MAKE) --no-print-directory -s -j$(JOBS) -f build.mk MODE=release server
	@sh docker/local-cluster.sh

# Fuzz every tests/fuzz/fuzz_*.c harness for FUZZ_SECONDS each (libFuzzer,
# ASan, UBSan; build/fuzz/). Crashes land in build/fuzz/crashes/<harness>/.
FUZZ_SECONDS ?= 60
.PHONY: fuzz crashtest
fuzz: deps
	@$(MAKE) --no-print-directory -f build.mk MODE=fuzz CC=clang FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz-run

# Kill the server with SIGKILL 200 times mid-game (tests/api/test_crash.c;
# make test runs 15), then one of two nodes on one throwaway PostgreSQL
# cluster 60 times while clients play through both (tests/api/test_crash_pg.c;
# make test runs 6). CAIRN_CRASH_SEED repeats a run.
crashtest: deps
	@$(MAKE) --no-print-directory -f build.mk MODE=test build/test/cairn build/test/tests/api/test_crash \
	  build/test/tests/api/test_crash_pg
	CAIRN_CRASH_ROUNDS=200 CAIRN_SERVER=$(abspath build/test/cairn) ASAN_OPTIONS=detect_leaks=1 \
	  build/test/tests/api/test_crash
	@CAIRN_TEST_PG=$$(sh tests/db/pg_cluster.sh start) || { echo "FAIL: no PostgreSQL cluster"; exit 1; }; \
	export CAIRN_TEST_PG; trap 'sh tests/db/pg_cluster.sh stop "$$CAIRN_TEST_PG"' EXIT; \
	trap 'exit 130' INT TERM; \
	CAIRN_CRASH_PG_ROUNDS=60 CAIRN_SERVER=$(abspath build/test/cairn) ASAN_OPTIONS=detect_leaks=1 \
	  build/test/tests/api/test_crash_pg

# The web client's browser tests (tests/web): Debian's Chromium driven by
# playwright-core (pinned in tests/web/package-lock.json) against the real
# server built with sanitizers. Installs chromium (and nodejs, npm when there
# is no node or npm at all) from Debian when missing.
test-web: deps
	@$(call install_missing,chromium)
	@$(call install_for_commands,node:nodejs npm:npm)
	@$(call npm_ci_if_stale,tests/web)
	@$(MAKE) --no-print-directory -f build.mk MODE=test server
	cd tests/web && CAIRN_SERVER=build/test/cairn node --test web.test.mjs lobby.test.mjs social.test.mjs

# The example chat bot (examples/chatbot) against the real server built with
# sanitizers and a fake chat platform: Node's built-in test runner, no npm
# packages. Installs nodejs from Debian when there is no node.
test-examples: deps
	@$(call install_for_commands,node:nodejs)
	@$(MAKE) --no-print-directory -f build.mk MODE=test server
	CAIRN_SERVER=build/test/cairn node --test examples/chatbot/test.mjs

# The API document against the tools its users reach for (tests/contract,
# versions pinned in its package-lock.json): Redocly's linter must report no
# error and no warning (openapi/redocly.yaml); openapi-typescript generates a
# client from the document the server serves, and README.md's "Try it" calls
# (tests/contract/try-it.ts) must type-check against it with tsc --strict,
# through openapi-fetch; then a short full game of every title is played
# against the real server built with sanitizers, every request and answer
# body checked against the document by ajv (tests/contract/exchanges.test.mjs).
# Installs nodejs and npm from Debian when missing.
test-contract: deps
	@$(call install_for_commands,node:nodejs npm:npm)
	@$(call npm_ci_if_stale,tests/contract)
	@$(MAKE) --no-print-directory -f build.mk MODE=test server
	node tests/contract/lint.mjs build/test/gen/openapi.yaml
	cd tests/contract && npx --no-install openapi-typescript ../../build/test/gen/openapi.yaml \
	  --default-non-nullable false --output gen/cairn.ts
	cd tests/contract && npx --no-install tsc -p tsconfig.json && echo "contract: try-it.ts type-checks"
	CAIRN_SERVER=build/test/cairn CAIRN_OPENAPI=build/test/gen/openapi.yaml \
	  node --test tests/contract/exchanges.test.mjs

# How well the built-in bots play (issue 26): strong against random per
# title, Because It's There solo per level, Journey from both sides, with
# 95% intervals and the time per decision. Long (every strong decision is a
# search; about ten minutes on two cores); not part of `make test` or `make
# bench`. CAIRN_BOTS_GAMES=N games a two-sided line (default 20),
# CAIRN_BOTS_SOLO_GAMES=N a solo line and level (default 8), on
# CAIRN_BOTS_THREADS threads (default 2); more in bench_strength.c's head.
bots: deps
	@$(MAKE) --no-print-directory -j$(JOBS) -f build.mk MODE=release build/release/tests/bots/strength/bench_strength
	build/release/tests/bots/strength/bench_strength

bench: bench-deps
	@$(MAKE) --no-print-directory -j$(JOBS) -f build.mk MODE=release benches
	@$(MAKE) --no-print-directory -f build.mk MODE=release run-benches

# The tracked sources (work in progress elsewhere in the tree is not judged);
# outside a git checkout, every source file.
C_FILES = $(shell git ls-files '*.c' '*.h' 2>/dev/null | grep . || \
            find api db engine tests \( -name '*.c' -o -name '*.h' \) -print)

format:
	clang-format -i $(C_FILES)

check-format:
	@clang-format --dry-run --Werror $(C_FILES) && echo "format: clean"

clean:
	rm -rf build

# Rewrite openapi/cairn.yaml from its parts: openapi/base.yaml and each
# title's engine/<title>/openapi.yaml (build.mk, openapi/README.md).
.PHONY: openapi
openapi:
	@$(MAKE) --no-print-directory -f build.mk openapi
