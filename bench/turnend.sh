#!/usr/bin/env bash
# What a Claude Code Stop costs at the sidecar with 0, 3, 100 and 1,000 files held in a repository of 50,000, against
# `git status --untracked-files=all` of that repository in the same rounds (dev.baton.bench.TurnEndBench). The
# repository is made in a temporary directory under ${TMPDIR:-/tmp} and deleted at the end.
# Usage: bench/turnend.sh [rounds [files [held…]]]   (default 15 rounds, 50,000 files, 0 3 100 1000 held; markdown rows)
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q install -DskipTests
mvn -B -q -pl sidecar test-compile
cp="sidecar/target/test-classes:sidecar/target/classes:$(mvn -B -q -pl sidecar dependency:build-classpath -Dmdep.outputFile=/dev/stdout)"
java -Djava.io.tmpdir="${TMPDIR:-/tmp}" -cp "$cp" dev.baton.bench.TurnEndBench "$@"
