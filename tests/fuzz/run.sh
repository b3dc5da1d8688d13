#!/bin/sh
# run.sh BIN SECONDS OUT [short] - run one libFuzzer harness the way
# build.mk's fuzz-run and fuzz-short do:
#   1. replay every input in tests/fuzz/regressions/<harness>/ once (each
#      is a crash found earlier, kept so it never comes back);
#   2. fuzz for SECONDS, starting from OUT/corpus/<harness>/ (grown across
#      runs, never committed) and the handwritten seeds in
#      tests/fuzz/corpus/<harness>/.
# With "short" (make test) step 2 starts from the seeds alone, in a scratch
# corpus emptied first: libFuzzer replays its whole corpus before it starts
# fuzzing, and a corpus grown by `make fuzz` would take minutes to replay.
# Prints one line per harness; on a failure, the end of the log and where
# libFuzzer left the crashing input (OUT/crashes/<harness>/), then exits 1.
set -u
bin=$1
seconds=$2
out=$3
mode=${4:-long}
h=$(basename "$bin")
reg=tests/fuzz/regressions/$h
seeds=tests/fuzz/corpus/$h
log=$out/$h.log
corpus=$out/corpus/$h
if [ "$mode" = short ]; then
  corpus=$out/short-corpus/$h
  rm -rf "$corpus"
fi
mkdir -p "$corpus" "$out/crashes/$h"
start=$(date +%s)

nreg=0
[ -d "$reg" ] && nreg=$(find "$reg" -type f | wc -l)
: >"$log"
if [ "$nreg" -gt 0 ]; then
  # With file arguments libFuzzer runs each input once and stops.
  if ! find "$reg" -type f -print0 | xargs -0 "$bin" >>"$log" 2>&1; then
    tail -n 60 "$log"
    echo "fuzz $h: FAILED: a regression input in $reg crashes again"
    exit 1
  fi
fi

set -- "$corpus"
[ -d "$seeds" ] && set -- "$@" "$seeds"
if ! "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$out/crashes/$h/" "$@" >>"$log" 2>&1; then
  tail -n 60 "$log"
  echo "fuzz $h: FAILED: the input is in $out/crashes/$h/; once fixed, copy it to $reg/"
  exit 1
fi
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
echo "fuzz $h: ok: $nreg regression inputs, ${runs:-?} runs in $(($(date +%s) - start)) s," \
  "corpus $(ls "$corpus" | wc -l) files"
