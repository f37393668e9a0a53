#!/usr/bin/env bash
# Lock throughput and latency over HTTP, start-up time, flatness with 1k/10k/100k held locks, RSS.
# Usage: bench/locks.sh [seconds-per-measurement [runs [clients...]]]   (markdown rows; several runs: median (range);
# client counts: only the runs with no other locks held, with those counts)
set -euo pipefail
cd "$(dirname "$0")/.."
# Builds baton.jar (every dependency inside) and the benchmark's classes; nothing goes to the local repository.
mvn -B -q package -DskipTests
cp="sidecar/target/test-classes:sidecar/target/baton.jar"
echo "| scenario | clients | acquire+release pairs/s | acquire p50 ms | acquire p99 ms | sidecar CPU µs per pair |"
echo "|---|---|---|---|---|---|"
java -cp "$cp" dev.baton.bench.LockBench bin/baton "${1:-5}" "${@:2}"
echo
echo "Engine alone (no HTTP), one thread, three rounds of 20,000 pairs:"
java -cp "$cp" dev.baton.bench.EngineBench
