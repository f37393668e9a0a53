#!/usr/bin/env bash
# Added latency of a shell tool's PreToolUse + PostToolUse at the sidecar, small repository and 50,000 files, then
# what the wrapper (baton-shell) adds to a command with 0, 5 and 100 files held by another session.
# Usage: bench/shell.sh [small-iterations [large-iterations [large-files]]]   (markdown rows; run it once more
# with BATON_SHELL_AFTER_CHECK=0 in the environment for the figures without the check after the command)
#        bench/shell.sh wrapper [runs]                                       (the wrapper's rows alone)
#        bench/shell.sh follow [rounds [runs]]    (an agent's command follows the lock table: a file taken meanwhile)
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q install -DskipTests
mvn -B -q -pl sidecar test-compile
cp="sidecar/target/test-classes:sidecar/target/classes:$(mvn -B -q -pl sidecar dependency:build-classpath -Dmdep.outputFile=/dev/stdout)"
if [[ ${1-} == follow ]]; then
  shift
  java -cp "$cp" dev.baton.bench.ShellFollowBench "$@"
else
  java -cp "$cp" dev.baton.bench.ShellBench "$@"
fi
