#!/usr/bin/env bash
# Sidecar start-up with and without the class-data archive: process spawned to first answered /v1/health,
# N starts of each, alternating (bin/baton serve, which uses sidecar/target/baton.jsa, then the same jar with
# java -XX:+UseSerialGC -jar and no archive). Usage: bench/startup.sh [N]   (default 5; needs curl)
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -f sidecar/target/baton.jsa ]] || { echo "bench: build first: mvn -q package -DskipTests" >&2; exit 2; }
runs=${1:-5}
start() { # prints the milliseconds from spawn to the first answered health request
  local home; home=$(mktemp -d)
  local t0; t0=$(date +%s%N)
  BATON_HOME=$home "$@" serve --port 0 >"$home/out.log" 2>&1 &
  local pid=$!
  until [[ -s $home/endpoint ]] && curl -sf "http://127.0.0.1:$(cut -d: -f2 "$home/endpoint")/v1/health" >/dev/null 2>&1; do
    kill -0 "$pid" 2>/dev/null || { echo "bench: the sidecar exited; see $home/out.log" >&2; exit 1; }
    sleep 0.01
  done
  echo $(( ($(date +%s%N) - t0) / 1000000 ))
  kill "$pid"; wait "$pid" 2>/dev/null || true; rm -rf "$home"
}
with=() without=()
for ((i = 0; i < runs; i++)); do
  with+=("$(start bin/baton)")
  without+=("$(start java -XX:+UseSerialGC -jar sidecar/target/baton.jar)")
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR % 2 ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2)}'; }
range() { printf '%s\n' "$@" | sort -n | awk 'NR==1 {lo=$1} {hi=$1} END {print lo "–" hi}'; }
echo "with the archive (bin/baton serve):  median $(median "${with[@]}") ms ($(range "${with[@]}") ms)"
echo "without (java -jar, no archive):     median $(median "${without[@]}") ms ($(range "${without[@]}") ms)"
