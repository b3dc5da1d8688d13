#!/bin/sh
# compare.sh - call out a slowdown between bench runs (issue 22).
#
#   tests/bench/compare.sh [history]   (default tests/bench/history.log)
#
# `make bench` appends to the history a line "# run <time> <commit>" and then
# each bench's output, in which every figure also has a line
# "figure <key> <value> <higher|lower>" (tests/bench/figures.h). For each
# figure of the last run this compares its value with the same key's value in
# the latest earlier run that has it, and prints
#   REGRESSION <key>: <old> -> <new> (<pct>%)
# when it is more than 20% worse (lower where higher is better, or the other
# way), then one summary line. A figure whose earlier value is 0 has no
# percentage and is not judged. It reports and exits 0: wall-clock figures on
# a shared machine are not assertions.
set -eu
history=${1:-tests/bench/history.log}
[ -r "$history" ] || { echo "compare: no history at $history"; exit 0; }
awk -v limit=20 '
  # First pass: where the last run begins.
  FNR == NR { if ($1 == "#" && $2 == "run") last = FNR; next }
  last == 0 { exit }
  FNR == last { run = $3 " " $4; next }
  $1 != "figure" || NF < 4 { next }
  FNR < last { before[$2] = $3; next }
  {
    key = $2; now = $3 + 0
    if (!(key in before)) { fresh++; next }
    was = before[key] + 0; compared++
    if (was == 0) next
    pct = 100 * (now - was) / (was < 0 ? -was : was)
    worse = $4 == "higher" ? -pct : pct
    if (worse > limit) {
      printf "REGRESSION %s: %s -> %s (%+.1f%%)\n", key, before[key], $3, pct
      regressions++
    }
  }
  END {
    if (last == 0) { print "compare: no run in the history (no \"# run\" line)"; exit }
    printf "compare: run %s: %d figures compared with earlier runs, %d more than %d%% worse, %d new\n",
      run, compared, regressions, limit, fresh
  }
' "$history" "$history"
