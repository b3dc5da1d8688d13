#!/bin/sh
# local-cluster.sh - a Cairn cluster on this machine, for a person to play
# on (issue 23, "easy to try"): a throwaway PostgreSQL (tests/db/pg_cluster.sh),
# two Cairn nodes on it, and HAProxy from Debian in front, balancing by
# GET /readyz. `make cluster` runs it; Ctrl-C stops everything and removes
# the database.
#
#   CAIRN_CLUSTER_PORT  the balancer's port on 127.0.0.1 (default 8080);
#                       the nodes take the next two
#   CAIRN_CLUSTER_SMOKE=1  start, check that both nodes answer through the
#                       balancer and share one game, stop (what the test does)
set -eu
cd "$(dirname "$0")/.."

port=${CAIRN_CLUSTER_PORT:-8080}
port_a=$((port + 1))
port_b=$((port + 2))
bin=$(pwd)/build/release/cairn
work=$(mktemp -d /tmp/cairn-cluster-XXXXXX)
url=""
pids=""

stop_all() {
  trap - INT TERM EXIT
  for p in $pids; do kill -TERM "$p" 2>/dev/null || true; done
  for p in $pids; do wait "$p" 2>/dev/null || true; done
  [ -z "$url" ] || sh tests/db/pg_cluster.sh stop "$url"
  rm -rf "$work"
}
trap stop_all INT TERM EXIT

# Wait until `$1` answers GET /livez, or give up after 10 s.
wait_live() {
  tries=0
  until curl -sf "http://127.0.0.1:$1/livez" >/dev/null 2>&1; do
    tries=$((tries + 1))
    [ "$tries" -le 100 ] || { echo "local-cluster: nothing answers on $1; logs in $work" >&2; exit 1; }
    sleep 0.1
  done
}

web=$(pwd)/web
url=$(sh tests/db/pg_cluster.sh start)
for p in $port_a $port_b; do
  # Both nodes sign exports with one key (--key, made by the first): the
  # cluster is one server to a reader of its exports. The games are the
  # database's.
  "$bin" --host 127.0.0.1 --port "$p" --db "$url" --web "$web" --key "$work/server.key" \
    --drain-seconds 2 >"$work/node-$p.out" 2>"$work/node-$p.log" &
  pids="$pids $!"
  wait_live "$p"
done
sed -e "s/@PORT@/$port/" -e "s/@NODE_A@/127.0.0.1:$port_a/" -e "s/@NODE_B@/127.0.0.1:$port_b/" \
  docker/cluster/haproxy.cfg.in >"$work/haproxy.cfg"
haproxy -db -f "$work/haproxy.cfg" >"$work/haproxy.log" 2>&1 &
pids="$pids $!"

# Ready once the balancer has a node to send to.
tries=0
until curl -sf "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; do
  tries=$((tries + 1))
  if [ "$tries" -gt 100 ]; then
    echo "local-cluster: the balancer found no ready node; logs in $work" >&2
    cat "$work"/node-*.log "$work/haproxy.log" >&2 || true
    exit 1
  fi
  sleep 0.1
done

if [ "${CAIRN_CLUSTER_SMOKE:-0}" = 1 ]; then
  # A player made through the balancer is known to both nodes, directly.
  token=$(curl -sf -X POST -H 'Content-Type: application/json' -d '{"name":"Smoke"}' \
    "http://127.0.0.1:$port/v1/players" | sed -n 's/.*"token":"\([^"]*\)".*/\1/p')
  [ -n "$token" ]
  for p in $port_a $port_b; do
    curl -sf -H "Authorization: Bearer $token" "http://127.0.0.1:$p/v1/players/me/games" >/dev/null
  done
  # Requests through the balancer reach both nodes.
  for i in 1 2 3 4 5 6; do curl -sf "http://127.0.0.1:$port/v1/health" >/dev/null; done
  for p in $port_a $port_b; do
    n=$(curl -sf "http://127.0.0.1:$p/metrics" |
      sed -n 's/^cairn_http_requests_total{method="GET",route="\/v1\/health",status="200"} //p')
    [ "${n:-0}" -ge 1 ] || { echo "local-cluster: node on $p served no request" >&2; exit 1; }
  done
  echo "local-cluster: ok (two nodes on one PostgreSQL behind HAProxy)"
  exit 0
fi

echo "cairn cluster: http://127.0.0.1:$port/ (nodes on $port_a and $port_b, PostgreSQL at $url)"
echo "Ctrl-C stops it and removes the database."
wait
