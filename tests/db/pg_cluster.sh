#!/bin/sh
# pg_cluster.sh - a throwaway PostgreSQL cluster for the tests (issue 23).
#
#   sh tests/db/pg_cluster.sh start       create and start one; print its URL
#   sh tests/db/pg_cluster.sh stop URL    stop it and remove its directory
#
# The cluster lives in a fresh directory under /tmp, made with Debian's own
# binaries (/usr/lib/postgresql/<newest version>/bin). It listens on a Unix
# socket in that directory only (no TCP: listen_addresses=''), keeps fsync
# on (the tests judge durable commits), and trusts whoever reaches the
# socket, which only the directory's owner (and root) can. initdb refuses
# to run as root, so as root the cluster belongs to `nobody`; as anyone
# else, to that user. The URL names the database `cairn` and the superuser
# `cairn`; tests create their own databases next to it.
set -eu

pg_bin() {
  for v in $(ls /usr/lib/postgresql 2>/dev/null | sort -rn); do
    if [ -x "/usr/lib/postgresql/$v/bin/initdb" ]; then
      echo "/usr/lib/postgresql/$v/bin"
      return 0
    fi
  done
  echo "pg_cluster.sh: no PostgreSQL server under /usr/lib/postgresql (apt-get install postgresql)" >&2
  return 1
}

# Run "$@" as the cluster's owner.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u nobody -- "$@"
  else
    "$@"
  fi
}

# The directory a URL's host= names.
dir_of() {
  echo "$1" | sed -n 's/.*[?&]host=\([^&]*\).*/\1/p'
}

start() {
  bin=$(pg_bin)
  dir=$(mktemp -d /tmp/cairn-pg-XXXXXX)
  chmod 700 "$dir"
  [ "$(id -u)" -ne 0 ] || chown nobody:nogroup "$dir"
  if ! as_owner "$bin/initdb" -D "$dir/data" -U cairn --auth=trust --encoding=UTF8 \
      --locale=C.UTF-8 >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log" >&2
    rm -rf "$dir"
    exit 1
  fi
  if ! as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c fsync=on \
          -c max_connections=200" start >/dev/null 2>&1; then
    cat "$dir/server.log" >&2
    rm -rf "$dir"
    exit 1
  fi
  as_owner "$bin/psql" -q -h "$dir" -U cairn -d postgres -c "CREATE DATABASE cairn" >/dev/null
  echo "postgresql:///cairn?host=$dir&user=cairn"
}

stop() {
  dir=$(dir_of "$1")
  case "$dir" in
    /tmp/cairn-pg-*) ;;
    *) echo "pg_cluster.sh: $1 is not a URL this script printed" >&2; exit 1 ;;
  esac
  bin=$(pg_bin)
  if [ -d "$dir/data" ]; then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}

case "${1:-}" in
  start) start ;;
  stop) stop "${2:?usage: pg_cluster.sh stop URL}" ;;
  *) echo "usage: pg_cluster.sh start | stop URL" >&2; exit 2 ;;
esac
