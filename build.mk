# build.mk - the build proper, run by the Makefile after `deps` so that
# pkg-config answers. MODE=release (optimised) or MODE=test (sanitizers).
#
# Sources are found by wildcard: a new title's engine/<title>/*.c is picked up
# without touching this file.

MODE ?= release
OUT  ?= build/$(MODE)

# libyaml: GET /docs renders the API document it reads (api/docs.c).
# libxxhash: the entity tags of answers (api/representation.c).
PKGS := libmicrohttpd sqlite3 libpq jansson libcurl libsodium zlib yaml-0.1 libxxhash
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) cmocka)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS))
# libm: the rating update (game/ratings.c: exp, sqrt; issue 25) and the bots'
# search (UCB1; issue 26).
PKG_LIBS   += -lm
CMOCKA_LIBS := $(shell pkg-config --libs cmocka)
# libyaml for the tests that read the API document (test_document).
YAML_CFLAGS := $(shell pkg-config --cflags yaml-0.1)
YAML_LIBS   := $(shell pkg-config --libs yaml-0.1)

CC ?= cc
WARN := -std=c17 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter
ifeq ($(MODE),test)
  OPT := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
else
  OPT := -O2 -g
endif
CFLAGS  := $(WARN) $(OPT) -D_GNU_SOURCE -MMD -MP $(PKG_CFLAGS) $(YAML_CFLAGS) -I.
LDFLAGS := $(OPT) -pthread

# A title's folder is compiled once engine/titles.def registers it
# (ENGINE_TITLE(folder, symbol)); EXTRA_TITLES adds folders being written,
# so work in progress never breaks anyone else's build.
TITLES     := $(shell sed -n 's/^ENGINE_TITLE.\([^,]*\),.*/\1/p' engine/titles.def) $(EXTRA_TITLES)
ENGINE_SRC := $(wildcard engine/*.c) $(foreach t,$(TITLES),$(wildcard engine/$(t)/*.c))
DB_SRC     := $(wildcard db/*.c db/sqlite/*.c db/postgres/*.c)
# The server's log (log/log.h): JSON lines, for every layer but the engine.
LOG_SRC    := $(wildcard log/*.c)
# The game layer: live games and every change to them, no HTTP (game/README.md).
GAME_SRC   := $(wildcard game/*.c)
API_SRC    := $(wildcard api/*.c)
# The bots' search (bots/README.md): pure like the engine, linked by the
# game layer and by their own tests (tests/bots/).
BOTS_SRC   := $(wildcard bots/*.c)
# The entry point and the offline tools (verify, revalidate): only the
# binary links them; tests link the core below them.
CLI_SRC    := $(wildcard cli/*.c)
# Each backend keeps its own migrations (migrations/<backend>/), each
# compiled into a table of its own (gen_migrations below).
MIGRATIONS    := $(sort $(wildcard migrations/sqlite/*.sql))
PG_MIGRATIONS := $(sort $(wildcard migrations/postgres/*.sql))
GEN_MIGRATIONS    := $(OUT)/gen/migrations.c
GEN_PG_MIGRATIONS := $(OUT)/gen/pg_migrations.c
GEN_OPENAPI    := $(OUT)/gen/openapi.c

obj = $(patsubst %.c,$(OUT)/obj/%.o,$(1))
ENGINE_OBJ := $(call obj,$(ENGINE_SRC))
DB_OBJ     := $(call obj,$(DB_SRC)) $(OUT)/obj/gen/migrations.o $(OUT)/obj/gen/pg_migrations.o
GAME_OBJ   := $(call obj,$(GAME_SRC))
API_OBJ    := $(call obj,$(API_SRC)) $(OUT)/obj/gen/openapi.o
LOG_OBJ    := $(call obj,$(LOG_SRC))
BOTS_OBJ   := $(call obj,$(BOTS_SRC))
CORE_OBJ   := $(ENGINE_OBJ) $(BOTS_OBJ) $(LOG_OBJ) $(DB_OBJ) $(GAME_OBJ) $(API_OBJ)

SERVER := $(OUT)/cairn

# Tests: every tests/**/test_*.c is one binary. Other .c files in the same
# folder are support code linked into that folder's tests.
TEST_SRC := $(sort $(shell find tests -name 'test_*.c' -not -path 'tests/engine/*/*') \
              $(foreach t,$(TITLES),$(wildcard tests/engine/$(t)/test_*.c)))
TEST_BIN := $(patsubst %.c,$(OUT)/%,$(TEST_SRC))
# A title's engine tests (tests/engine/<title>/) also get the shared kit in
# tests/engine/.
support_in = $(filter-out $(1)test_% $(1)bench_%,$(wildcard $(1)*.c))
support_of = $(call obj,$(call support_in,$(dir $(1))) \
             $(if $(filter tests/engine/%/,$(dir $(1))),$(call support_in,tests/engine/)))

# Every test binary shuffles its tests through tests/order.c (order.h).
ORDER_OBJ := $(call obj,tests/order.c)

BENCH_SRC := $(wildcard tests/*/bench_*.c)
BENCH_BIN := $(patsubst %.c,$(OUT)/%,$(BENCH_SRC))

.PHONY: server tests run-tests benches run-benches
server: $(SERVER)
tests: $(SERVER) $(TEST_BIN)
benches: $(SERVER) $(BENCH_BIN)

$(SERVER): $(call obj,$(CLI_SRC)) $(CORE_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(OUT)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(OUT)/obj/gen/%.o: $(OUT)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# The API document is assembled, not pasted: the shared part
# (openapi/base.yaml) and each registered title's fragment
# (engine/<title>/openapi.yaml), in titles.def's order, joined by
# openapi/assemble.awk (openapi/README.md). The binary serves the built
# file; openapi/cairn.yaml is the same bytes kept in git for readers, and
# test_openapi fails when it is stale (`make openapi` rewrites it).
OPENAPI_PARTS := $(foreach t,$(TITLES),engine/$(t)/openapi.yaml) openapi/base.yaml
OPENAPI_DOC   := $(OUT)/gen/openapi.yaml

$(OPENAPI_DOC): $(OPENAPI_PARTS) openapi/assemble.awk build.mk
	@mkdir -p $(dir $@)
	@awk -f openapi/assemble.awk $(OPENAPI_PARTS) >$@.tmp || { rm -f $@.tmp; exit 1; }
	@mv $@.tmp $@

.PHONY: openapi
openapi: $(OPENAPI_DOC)
	@cmp -s $< openapi/cairn.yaml || { cp $< openapi/cairn.yaml; echo "openapi/cairn.yaml rewritten"; }

# The OpenAPI document is served from the binary: bytes as a C array.
$(GEN_OPENAPI): $(OPENAPI_DOC) build.mk
	@mkdir -p $(dir $@)
	@{ echo '/* generated by build.mk from openapi/base.yaml and engine/<title>/openapi.yaml; do not edit */'; \
	  echo '#include <stddef.h>'; \
	  echo 'const char api_openapi_yaml[] = {'; \
	  od -An -v -tx1 $< | sed 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	  echo '0};'; \
	  echo 'const size_t api_openapi_yaml_len = sizeof(api_openapi_yaml) - 1;'; } > $@

# Each migrations/<backend>/NNNN_name.sql becomes one C string in a table
# ordered by number, so the binary carries its schemas and never depends
# on the cwd. $(call gen_migrations,FILES,HEADER,STRUCT,TABLE) prints the
# table: `const struct STRUCT TABLE[]`, declared in HEADER.
define gen_migrations
{ echo '/* generated from migrations/ by build.mk; do not edit */'; \
  echo '#include "$(2)"'; \
  echo 'const struct $(3) $(4)[] = {'; \
  for f in $(1); do \
    n=$$(basename $$f | sed 's/_.*//' | sed 's/^0*//'); \
    echo "  {$$n, \"$$(basename $$f)\","; \
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$$/\\n"/' $$f; \
    echo '  },'; \
  done; \
  echo '  {0, 0, 0},'; \
  echo '};'; }
endef

$(GEN_MIGRATIONS): $(MIGRATIONS) build.mk
	@mkdir -p $(dir $@)
	@$(call gen_migrations,$(MIGRATIONS),db/sqlite/migrations.h,db_migration,db_migrations) > $@

$(GEN_PG_MIGRATIONS): $(PG_MIGRATIONS) build.mk
	@mkdir -p $(dir $@)
	@$(call gen_migrations,$(PG_MIGRATIONS),db/postgres/migrations.h,db_pg_migration,db_pg_migrations) > $@

# What each test folder links: engine tests see only the engine (it must
# stand alone), storage tests the engine and db/, unit tests of server code
# (tests/core/) the whole core without main(), API tests talk HTTP to the
# real server binary and link no server code at all.
links_of = $(if $(filter tests/engine/%,$(1)),$(ENGINE_OBJ),$(if $(filter tests/bots/%,$(1)),$(ENGINE_OBJ) $(BOTS_OBJ),$(if $(filter tests/db/%,$(1)),$(ENGINE_OBJ) $(LOG_OBJ) $(DB_OBJ),$(if $(filter tests/bench/%,$(1)),$(ENGINE_OBJ) $(LOG_OBJ) $(DB_OBJ),$(if $(filter tests/core/%,$(1)),$(CORE_OBJ),)))))

# Support objects reach the test rule only through a pattern, which makes
# them intermediate files that make deletes after a build, so the next make
# (run-tests) rebuilt and relinked every test. Keep every built file: with
# no prerequisites (and no other .SECONDARY line anywhere) this covers all.
.SECONDARY:

.SECONDEXPANSION:
$(OUT)/tests/%: tests/%.c $$(call links_of,tests/%.c) $$(call support_of,tests/%.c) $(ORDER_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(call support_of,$<) $(ORDER_OBJ) $(call links_of,$<) $(PKG_LIBS) $(CMOCKA_LIBS) $(YAML_LIBS)

# The engine is pure (style.md 2.7): no object of engine/ may hold mutable
# data. Symbols in .data/.bss (not .data.rel.ro, where const tables of
# pointers live) other than the sanitizers' own are a failure.
.PHONY: check-engine-purity
check-engine-purity: $(ENGINE_OBJ)
	@bad=$$(for f in $(ENGINE_OBJ); do objdump -t $$f | \
	  awk -v f=$$f '$$0 ~ / (\.data|\.bss)[ \t]/ && $$NF !~ /^(__odr_asan|__asan|\.)/ {print f": "$$NF}'; \
	  done); \
	if [ -n "$$bad" ]; then echo "engine holds mutable globals:"; echo "$$bad"; exit 1; fi; \
	echo "engine purity: no mutable globals in $(words $(ENGINE_OBJ)) objects"

# Run every test binary; the server-based ones find the binary through
# CAIRN_SERVER. CAIRN_OPENAPI names the built API document (test_openapi,
# test_document), CAIRN_OPENAPI_TRACKED the copy in git (test_openapi).
# The last line is the plain "N passed, N failed" summary.
#
# Security-relevant API tests run a second time against the release (-O2)
# server, which `make test` builds first: optimisation once broke the
# webhook address check (strict aliasing) while the sanitizer build passed.
OPENAPI_ENV := CAIRN_OPENAPI=$(abspath $(OPENAPI_DOC)) CAIRN_OPENAPI_TRACKED=$(abspath openapi/cairn.yaml)
RELEASE_SERVER   := $(abspath build/release/cairn)
RELEASE_SECURITY := $(addprefix $(OUT)/tests/api/,test_webhooks test_secrets test_fog test_records test_pages \
                      test_limits test_errors test_resign test_operations test_backup \
                      test_http_extras test_pg_nodes test_devices test_updates test_parked_moves \
                      test_race test_stream_views test_chat test_lobby)
# The property tests play thousands of random games per title. Under the
# sanitizers a game costs about ten times what it costs at -O2, so that pass
# plays the first CAIRN_PROPERTY_GAMES of each loop (every path the checks
# reach, with memory errors caught), and the same tests built -O2 (`make
# test` builds them with the release server: property-tests) play every game.
PROPERTY_GAMES_SANITIZED := 200
RELEASE_PROPERTY := $(patsubst $(OUT)/%,build/release/%,$(filter %/test_property,$(TEST_BIN)))
.PHONY: property-tests
property-tests: $(filter %/test_property,$(TEST_BIN))
# Each binary's own output is kept in build/test/logs/ and shown only when it
# fails (CAIRN_TEST_VERBOSE=1 shows all of it), so a green run prints one
# line a binary and the summary. tests/run.sh runs TEST_JOBS binaries at a
# time (most of a binary's time is spent waiting on its server), the
# slowest first (TEST_SLOW, each with its release run beside it) so that
# they overlap the many short ones instead of ending the run alone.
# Shell tests (tests/bench/test_compare.sh) run beside the binaries.
TEST_SCRIPTS := $(wildcard tests/bench/test_*.sh)
TEST_JOBS ?= 2
TEST_SLOW := test_secrets test_document test_webhooks test_property test_fair test_json_text \
             test_titles test_pages test_conformance test_sqlite test_ratings test_pg_work test_choices
slow_first = $(foreach n,$(TEST_SLOW),$(filter %/$(n),$(1))) \
             $(filter-out $(foreach n,$(TEST_SLOW),%/$(n)),$(1))
RELEASE_RUNS := $(filter $(TEST_BIN),$(RELEASE_SECURITY))
# The job list tests/run.sh reads, a line a job: binary, server, log
# suffix, label, games ("-" for none), written to $(OUT)/logs/jobs.
define newline


endef
test_jobs = $(foreach t,$(call slow_first,$(RELEASE_PROPERTY)),$(t) - .release (release_build,_every_game) -$(newline))$\
  $(foreach t,$(call slow_first,$(RELEASE_RUNS)),$(t) $(RELEASE_SERVER) .release (release_server) -$(newline))$\
  $(foreach t,$(call slow_first,$(TEST_BIN)),$(t) $(abspath $(SERVER)) - - $(PROPERTY_GAMES_SANITIZED)$(newline))$\
  $(foreach t,$(TEST_SCRIPTS),$(t) - - - -$(newline))
#
# The PostgreSQL tests (the conformance suite's postgres row, test_postgres)
# run against a real cluster: tests/db/pg_cluster.sh starts a throwaway one
# before the first binary and the trap stops it and removes its directory
# after the last, whether the tests pass, fail or are interrupted.
PG_CLUSTER := tests/db/pg_cluster.sh
run-tests: tests check-engine-purity
	$(shell mkdir -p $(OUT)/logs)$(file >$(OUT)/logs/jobs,$(test_jobs))
	@[ -x $(RELEASE_SERVER) ] || { echo "no release server at $(RELEASE_SERVER) (make -f build.mk MODE=release server)"; exit 1; }
	@for t in $(RELEASE_PROPERTY); do [ -x $$t ] || { \
	  echo "no release build of $$t (make -f build.mk MODE=release property-tests)"; exit 1; }; done
	@CAIRN_TEST_PG=$$(sh $(PG_CLUSTER) start) || { echo "FAIL: no PostgreSQL cluster for the tests"; exit 1; }; \
	export CAIRN_TEST_PG; \
	trap 'sh $(PG_CLUSTER) stop "$$CAIRN_TEST_PG"' EXIT; trap 'exit 130' INT TERM; \
	sed 's/^ *//' $(OUT)/logs/jobs | $(OPENAPI_ENV) OUT=$(OUT) JOBS=$(TEST_JOBS) bash tests/run.sh

# Each bench prints its figures and appends them, under a line naming the
# time, the commit and the bench, to $(BENCH_HISTORY) (tracked: the history
# of the figures is kept with the code that produced them). A run begins
# with a "# run <time> <commit>" line; each figure also has a line "figure
# <key> <value> <higher|lower>" (tests/bench/figures.h), and at the end
# tests/bench/compare.sh calls out, in the output and the history, every
# figure more than 20% worse than in the latest earlier run that has it.
#
# The PostgreSQL figures (bench_load's pg.*, bench_pg_notify) run on a
# throwaway cluster named by CAIRN_BENCH_PG: started before the first bench,
# stopped (its directory removed) by the trap after the last, whether the
# benches pass, fail or are interrupted, as run-tests does.
BENCH_HISTORY ?= tests/bench/history.log
BENCH_SCRIPTS := $(filter-out tests/bench/compare.sh tests/bench/test_%.sh,$(wildcard tests/bench/*.sh))
run-benches: benches
	@commit=$$(git describe --always --dirty 2>/dev/null || echo unknown); \
	CAIRN_BENCH_PG=$$(sh $(PG_CLUSTER) start) || { echo "FAIL: no PostgreSQL cluster for the benches"; exit 1; }; \
	export CAIRN_BENCH_PG; \
	trap 'sh $(PG_CLUSTER) stop "$$CAIRN_BENCH_PG"' EXIT; trap 'exit 130' INT TERM; \
	{ echo; echo "# run $$(date -u +%Y-%m-%dT%H:%M:%SZ) $$commit"; } >>$(BENCH_HISTORY); \
	for b in $(BENCH_BIN) $(BENCH_SCRIPTS); do \
	  echo "== $$b"; \
	  { echo; echo "## $$(date -u +%Y-%m-%dT%H:%M:%SZ) $$commit $$(basename $$b)"; } >>$(BENCH_HISTORY); \
	  { CAIRN_SERVER=$(abspath $(SERVER)) $$b; echo $$? >$(OUT)/bench.rc; } | tee -a $(BENCH_HISTORY); \
	  [ "$$(cat $(OUT)/bench.rc)" = 0 ] || { echo "FAIL $$b"; exit 1; }; \
	done; \
	echo "== tests/bench/compare.sh"; \
	sh tests/bench/compare.sh $(BENCH_HISTORY) >$(OUT)/bench.compare; \
	{ echo; echo "## compare.sh"; cat $(OUT)/bench.compare; } >>$(BENCH_HISTORY); \
	cat $(OUT)/bench.compare

-include $(shell find $(OUT) -name '*.d' 2>/dev/null)

# ---- Fuzzing (libFuzzer): MODE=fuzz CC=clang, run by `make fuzz` and the
# last step of `make test`. Every object is built with coverage
# instrumentation into build/fuzz/; each tests/fuzz/fuzz_*.c is one harness
# linked with the whole core (the engine, db/, game/ and api/; not cli/), since
# fuzz_request reaches api/export.c, game/audit.c and the body decoder.
ifeq ($(MODE),fuzz)
  FUZZ_OPT := -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
              -fno-omit-frame-pointer
  CFLAGS   += $(FUZZ_OPT)
  LDFLAGS  += $(FUZZ_OPT)
endif
FUZZ_SRC     := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN     := $(patsubst tests/fuzz/%.c,$(OUT)/%,$(FUZZ_SRC))
FUZZ_SUPPORT := $(call obj,$(filter-out tests/fuzz/fuzz_%,$(wildcard tests/fuzz/*.c)))
FUZZ_SECONDS ?= 60
# Seconds per harness for the short run in `make test` (regressions first).
FUZZ_SHORT_SECONDS ?= 10

.PHONY: fuzzers fuzz-run fuzz-short
# Support objects are reached only through the pattern rule below: the
# .SECONDARY: above (every target) keeps make from deleting them.
fuzzers: $(FUZZ_BIN)

$(OUT)/fuzz_%: tests/fuzz/fuzz_%.c $(CORE_OBJ) $(FUZZ_SUPPORT)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_SUPPORT) $(CORE_OBJ) $(LDFLAGS) $(PKG_LIBS)

# Each harness: replay its regression inputs (each must pass), then fuzz from
# the handwritten seeds, growing build/fuzz/corpus/ (tests/fuzz/run.sh).
fuzz-run: $(FUZZ_BIN)
	@for b in $(FUZZ_BIN); do sh tests/fuzz/run.sh $$b $(FUZZ_SECONDS) $(OUT) || exit 1; done

# Two harnesses at a time (each libFuzzer run uses one core).
fuzz-short: $(FUZZ_BIN)
	@printf '%s\n' $(FUZZ_BIN) | xargs -P 2 -I '{}' sh tests/fuzz/run.sh '{}' $(FUZZ_SHORT_SECONDS) $(OUT) short
