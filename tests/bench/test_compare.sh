#!/bin/sh
# test_compare.sh - compare.sh on crafted histories: each figure of the last
# run is judged against the latest earlier run that has it, in the direction
# its line names, and only a change of more than 20% for the worse is called
# out. Run by `make test` (run-tests); alone: sh tests/bench/test_compare.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failed=0

# check <name> <history> <expected output>
check() {
  printf '%s\n' "$2" >"$dir/history"
  sh "$here/compare.sh" "$dir/history" >"$dir/got" 2>&1 || { echo "FAIL $1: exit $?"; failed=1; }
  printf '%s\n' "$3" >"$dir/want"
  if diff -u "$dir/want" "$dir/got" >"$dir/diff"; then echo "ok   $1"; else
    echo "FAIL $1:"; cat "$dir/diff"; failed=1; fi
}

check "regressions both ways, against the latest earlier run that has the figure" '
## 2026-01-01T00:00:00Z aaaaaaa bench_load
load himalaya: figures of the old format, without keys

# run 2026-01-02T00:00:00Z bbbbbbb
## 2026-01-02T00:00:00Z bbbbbbb bench_load
figure load.rate 50 higher
figure load.p99_ms 10 lower
figure load.cpu_us 5 lower
figure load.zero 0 lower

# run 2026-01-03T00:00:00Z ccccccc
## 2026-01-03T00:00:00Z ccccccc bench_load
figure load.rate 100 higher
figure idle.rss_kib 1000 lower

# run 2026-01-04T00:00:00Z ddddddd
## 2026-01-04T00:00:00Z ddddddd bench_load
load himalaya: a line for people
figure load.rate 79 higher
figure load.p99_ms 12.5 lower
figure load.cpu_us 5.9 lower
figure load.zero 3 lower
## 2026-01-04T00:01:00Z ddddddd bench_idle
figure idle.rss_kib 800 lower
figure memory.rss_kib 90000 lower' \
'REGRESSION load.rate: 100 -> 79 (-21.0%)
REGRESSION load.p99_ms: 10 -> 12.5 (+25.0%)
compare: run 2026-01-04T00:00:00Z ddddddd: 5 figures compared with earlier runs, 2 more than 20% worse, 1 new'

check "exactly 20% worse is not called out; better is never" '
# run 2026-01-01T00:00:00Z aaaaaaa
figure a 100 higher
figure b 100 lower
# run 2026-01-02T00:00:00Z bbbbbbb
figure a 80 higher
figure b 10 lower' \
'compare: run 2026-01-02T00:00:00Z bbbbbbb: 2 figures compared with earlier runs, 0 more than 20% worse, 0 new'

check "a first run has nothing to compare with" '
# run 2026-01-01T00:00:00Z aaaaaaa
figure a 100 higher' \
'compare: run 2026-01-01T00:00:00Z aaaaaaa: 0 figures compared with earlier runs, 0 more than 20% worse, 1 new'

check "a history of the old format, without runs" '
## 2026-01-01T00:00:00Z aaaaaaa bench_load
load himalaya: 100 concurrent games' \
'compare: no run in the history (no "# run" line)'

exit $failed
