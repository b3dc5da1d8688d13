#!/bin/sh
# move_path.sh - count what one move costs inside the server: how often the
# title's slots run (result, to_act, view, legal moves, apply), how many JSON
# texts are parsed and written, how many SQLite statements step and how many
# pages reach the WAL (pwrite64: SQLite writes a frame's header and its page
# apart, so two per page), for ONE
# POST /v1/games/{id}/moves of a two-seat Himalaya game (the first move of the
# game, then a tenth, so a warm cache is measured too).
#
#   tests/bench/move_path.sh [server-binary]   (default $CAIRN_SERVER, else build/release/cairn)
#
# It attaches gdb to the running server with counting breakpoints, so the
# binary needs its symbols (the release build keeps them). Figures are calls
# per move; they do not depend on the machine's speed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
server=${1:-${CAIRN_SERVER:-build/release/cairn}}
command -v gdb >/dev/null && command -v jq >/dev/null && command -v curl >/dev/null ||
  { echo "move_path.sh needs gdb, jq and curl" >&2; exit 2; }
dir=$(mktemp -d)
trap 'kill $pid 2>/dev/null; rm -rf "$dir"' EXIT
CAIRN_RATE_LIMIT=0 CAIRN_MAX_OPEN_GAMES=0 "$server" --host 127.0.0.1 --port 0 \
  --db "$dir/cairn.db" >"$dir/out" 2>"$dir/err" &
pid=$!
for _ in $(seq 50); do grep -q listening "$dir/out" 2>/dev/null && break; sleep 0.1; done
base=$(grep -o 'http://[0-9.:]*' "$dir/out")
post() { curl -sf -H 'Content-Type: application/json' -H "Authorization: Bearer $2" \
  -d "$3" "$base$1"; }
token() { curl -sf -H 'Content-Type: application/json' -d "{\"name\":\"$1\"}" \
  "$base/v1/players" | jq -r .token; }
a=$(token alice); b=$(token bob)
game=$(post /v1/games "$a" '{"title":"himalaya","seats":2}' | jq -r .id)
post "/v1/games/$game/join" "$a" '{}' >/dev/null
post "/v1/games/$game/join" "$b" '{}' >/dev/null
# The seat to act and its first legal move, as the page would read them.
next_move() {
  for t in "$a" "$b"; do
    g=$(curl -sf -H "Authorization: Bearer $t" "$base/v1/games/$game")
    if [ "$(echo "$g" | jq '.legal | length? // 0')" -gt 0 ]; then
      echo "$t"; echo "$g" | jq -c '{seq: .seq, move: .legal[0]}'; return; fi
  done
  echo "no seat may act" >&2; exit 1
}
play() { set -- $(next_move | tr '\n' ' '); post "/v1/games/$game/moves" "$1" "$2" >/dev/null || echo "refused: $2" >&2; }
counted="himalaya_result to_act himalaya_write_view himalaya_write_legal apply_move himalaya_serialize \
json_loads json_loadb json_dumps json_dumpb json_dump_callback sqlite3_step pwrite64 fdatasync fsync"
measure() {
  label=$1
  set -- $(next_move | tr '\n' ' ')
  rm -f "$dir/answered"
  gdb -q -batch -p "$pid" -ex "set pagination off" -ex "handle SIGSTOP stop print nopass" -ex "source $here/move_path.py" \
    -ex "python arm('$counted')" -ex "python stop_when('$dir/answered')" -ex continue -ex "python report('$label')" -ex detach \
    >"$dir/gdb.out" 2>&1 &
  gdbpid=$!
  for _ in $(seq 100); do grep -q "^Continuing" "$dir/gdb.out" 2>/dev/null && break; sleep 0.1; done
  rm -f "$dir/answered"
  post "/v1/games/$game/moves" "$1" "$2" >/dev/null
  touch "$dir/answered"; wait $gdbpid || true
  grep "^$label" "$dir/gdb.out"
  # The request thread's counts as figure lines (tests/bench/figures.h), fewer is better.
  key=$(echo "$label" | tr ' ' '_')
  sed -n "s/^$label, the request's thread: //p" "$dir/gdb.out" | tr ' ' '\n' | grep = |
    while IFS== read -r name count; do echo "figure move_path.$key.$name $count lower"; done
}
measure "first move"
for _ in $(seq 8); do play; done
measure "tenth move"
