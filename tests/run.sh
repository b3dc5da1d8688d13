#!/usr/bin/env bash
# run.sh - run the test binaries, JOBS at a time (build.mk's run-tests).
#
# Each line of the job list on stdin is
#   <binary> <server> <log suffix> <label> <property games>
# with "-" for an empty field and a label's spaces written as '_'. A job
# runs with CAIRN_SERVER set to its server and, when the fifth field is a
# number, CAIRN_PROPERTY_GAMES (how many games the property tests play);
# its output goes to OUT/logs/<name><suffix>.log, and one line is printed
# when it ends ("ok" or "FAIL", the binary, its label, its time).
#
# Why in parallel: most binaries wait on a server's fsyncs, timers and
# sockets far more than they compute, so two at a time on two cores halve
# the wall time without starving either. The list arrives slowest first, so
# the long ones overlap the many short ones instead of ending the run alone.
#
# Environment: OUT (build directory), JOBS (default 2), CAIRN_TEST_VERBOSE
# (show every binary's output as it ends), and what the binaries need
# (CAIRN_OPENAPI..., CAIRN_TEST_PG) exported by the caller.
# The last line is the plain "binaries: N passed, N failed" summary; the
# failing binaries' logs are printed before it.
set -u
jobs=${JOBS:-2}
logs=$OUT/logs
results=$logs/results
mkdir -p "$logs"
: >"$results"

# run_one BINARY SERVER SUFFIX LABEL PROPERTY_GAMES: one binary, its line.
run_one() {
  local bin=$1 server=$2 suffix=$3 label=$4 games=$5 log began rc took
  [ "$server" = - ] && server=
  [ "$suffix" = - ] && suffix=
  [ "$label" = - ] && label= || label=" ${label//_/ }"
  log="$logs/$(basename "$bin")$suffix.log"
  began=$(date +%s)
  local property=()
  [ "$games" = - ] || property=("CAIRN_PROPERTY_GAMES=$games")
  # stdin is the job list: a binary must not read it.
  env "${property[@]}" CAIRN_SERVER="$server" ASAN_OPTIONS=detect_leaks=1 "$bin" </dev/null >"$log" 2>&1
  rc=$?
  took="($(($(date +%s) - began)) s)"
  if [ $rc -eq 0 ]; then
    echo "ok   $bin$label $took"
    echo "ok $log" >>"$results"
  else
    echo "FAIL $bin$label $took"
    echo "FAIL $log $bin$label" >>"$results"
  fi
  [ -z "${CAIRN_TEST_VERBOSE:-}" ] || cat "$log"
}

running=0
while read -r bin server suffix label games; do
  [ -n "$bin" ] || continue
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
  run_one "$bin" "$server" "$suffix" "$label" "${games:--}" &
  running=$((running + 1))
done
wait

passed=$(grep -c '^ok ' "$results")
failed=$(grep -c '^FAIL ' "$results")
if [ "$failed" -gt 0 ] && [ -z "${CAIRN_TEST_VERBOSE:-}" ]; then
  while read -r _ log _; do
    echo "---- $log"
    cat "$log"
  done < <(grep '^FAIL ' "$results")
fi
echo
[ "$failed" -eq 0 ] || echo "failed:$(grep '^FAIL ' "$results" | cut -d' ' -f3- | sed 's/^/ /' | tr -d '\n')"
echo "binaries: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
