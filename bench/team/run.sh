#!/usr/bin/env bash
# Team-mode benchmark: the hook against a team sidecar and a local one, statements per edit and per lease interval,
# and acquire/release pairs per second with 1, 2 and 4 sidecars, against a real PostgreSQL on 127.0.0.1 (started
# from the test dependencies, as the tests do). Baton's own classes come from the build's baton.jar.
#   bench/team/run.sh [ROUNDS] [CALLS] [SECONDS]   (default 5 rounds of 40 hook calls per case, 5 s per pairs run)
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -f sidecar/target/baton.jar ] && [ -d sidecar/target/test-classes ] || mvn -B -q -o -pl sidecar -am test-compile package -DskipTests
classpath=sidecar/target/bench.classpath
mvn -B -q -pl sidecar org.apache.maven.plugins:maven-dependency-plugin:3.9.0:build-classpath \
    -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test -Dmdep.excludeGroupIds=dev.baton
mkdir -p bench/results
java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    -cp "sidecar/target/baton.jar:sidecar/target/test-classes:$(cat "$classpath")" bench/team/TeamBench.java "$@" \
    | tee "bench/results/team-$(date -u +%Y%m%dT%H%M%SZ).txt"
