# Cairn - play-by-web mountaineering games.
#
#   make run    install what is missing, build, serve on 127.0.0.1:8080
#   make test   install what is missing, build (release, and with sanitizers), run every test
#   make bench  print engine and server figures
#
# Packages come from Debian (apt) when missing; nothing else is downloaded.
# Compiler flags are read from pkg-config in a sub-make, after `deps` has run,
# so a fresh machine works in one command.

PACKAGES := build-essential pkg-config libmicrohttpd-dev libsqlite3-dev libjansson-dev \
            libcurl4-openssl-dev libcmocka-dev libsodium-dev

PORT     ?= 8080
HOST     ?= 127.0.0.1
DATA_DIR ?= data

.PHONY: all run test bench deps build server tests clean format check-format

all: build

deps:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi; \
	  $$sudo apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -q --no-install-recommends $$missing; \
	fi

build: deps
	@$(MAKE) --no-print-directory -f build.mk MODE=release server

run: build
	@mkdir -p $(DATA_DIR)
	./build/release/cairn --host $(HOST) --port $(PORT) --db $(DATA_DIR)/cairn.db

test: deps
	@$(MAKE) --no-print-directory -f build.mk MODE=release server
	@$(MAKE) --no-print-directory -f build.mk MODE=test tests
	@if command -v clang-format >/dev/null; then $(MAKE) --no-print-directory check-format; \
	  else echo "clang-format not installed: formatting not checked"; fi
	@$(MAKE) --no-print-directory -f build.mk MODE=test run-tests

bench: deps
	@$(MAKE) --no-print-directory -f build.mk MODE=release benches
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
