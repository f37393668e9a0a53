#!/usr/bin/env bash
# Event-stream and deadlock benchmark. Usage: bench/events/run.sh [runs] [events]
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -f sidecar/target/baton.jar ] || mvn -B -q -o -pl sidecar -am package -DskipTests
mkdir -p bench/results
java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp sidecar/target/baton.jar bench/events/EventBench.java "$@" \
    | tee "bench/results/events-$(date -u +%Y%m%dT%H%M%SZ).txt"
