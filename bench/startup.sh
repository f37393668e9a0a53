#!/usr/bin/env bash
# Sidecar start-up: process spawned to first answered /v1/health, and the CPU time the sidecar spent until then
# (user + system, from /proc/PID/stat: what a loaded machine's wall clock scales with), N starts of each variant,
# alternating:
#   bin/baton serve      the launcher's options (sidecar/target/baton.jvmopts) and the build's class-data archive
#   baseline             java BASELINE_OPTS with the same archive and jar (default: the options before they were
#                        measured, -XX:+UseSerialGC -Xshare:auto -Xmx768m); BASELINE_JAR picks another jar (its
#                        .jsa beside it is used when there is one)
#   no archive           java -XX:+UseSerialGC -jar, no archive
# Usage: bench/startup.sh [N]   (default 5; needs curl)
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -f sidecar/target/baton.jsa ]] || { echo "bench: build first: mvn -q package -DskipTests" >&2; exit 2; }
runs=${1:-5}
baseline_jar=${BASELINE_JAR:-sidecar/target/baton.jar}
read -r -a baseline_opts <<<"${BASELINE_OPTS:--XX:+UseSerialGC -Xshare:auto -Xmx768m}"
baseline_archive=()
if [[ -f ${baseline_jar%.jar}.jsa ]]; then
  baseline_archive=("-XX:SharedArchiveFile=${baseline_jar%.jar}.jsa" -Xlog:cds*=off -Xlog:class+path=off)
fi
# Each variant keeps its home from one start to the next, as a user's does (the database, and what a start keeps
# there); its first start, which makes them, is not counted.
homes=$(mktemp -d); trap 'rm -rf "$homes"' EXIT
start() { # $1: the variant's home; prints the ms from spawn to the first answered health request, and its CPU ms by then
  local home=$homes/$1; shift
  [[ -d $home ]] || mkdir -m 700 "$home"
  local t0; t0=$(date +%s%N)
  BATON_HOME=$home "$@" serve --port 0 >>"$home/out.log" 2>&1 &
  local pid=$!
  until [[ -s $home/endpoint ]] && curl -sf "http://127.0.0.1:$(cut -d: -f2 "$home/endpoint")/v1/health" >/dev/null 2>&1; do
    kill -0 "$pid" 2>/dev/null || { echo "bench: the sidecar exited; see $home/out.log" >&2; exit 1; }
    sleep 0.01
  done
  local wall=$(( ($(date +%s%N) - t0) / 1000000 ))
  echo "$wall $(awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15) * 1000 / hz}' "/proc/$pid/stat")"
  kill "$pid"; wait "$pid" 2>/dev/null || true
}
new=(bin/baton)
base=(java "${baseline_opts[@]}" "${baseline_archive[@]}" -jar "$baseline_jar")
bare=(java -XX:+UseSerialGC -jar sidecar/target/baton.jar)
start new "${new[@]}" >/dev/null; start base "${base[@]}" >/dev/null; start bare "${bare[@]}" >/dev/null
new_wall=() new_cpu=() base_wall=() base_cpu=() bare_wall=() bare_cpu=()
for ((i = 0; i < runs; i++)); do
  read -r w c < <(start new "${new[@]}"); new_wall+=("$w"); new_cpu+=("$c")
  read -r w c < <(start base "${base[@]}"); base_wall+=("$w"); base_cpu+=("$c")
  read -r w c < <(start bare "${bare[@]}"); bare_wall+=("$w"); bare_cpu+=("$c")
done
source bench/stats.sh
nw=$(median "${new_wall[@]}"); nc=$(median "${new_cpu[@]}"); bw=$(median "${base_wall[@]}"); bc=$(median "${base_cpu[@]}")
echo "Start-up, median (range) of $runs starts each, alternating; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| | spawn to first served request, ms | sidecar CPU by then, ms | ratio to baseline (wall; CPU) |"
echo "|---|---|---|---|"
echo "| bin/baton serve | $nw ($(range "${new_wall[@]}")) | $nc ($(range "${new_cpu[@]}")) | $(ratio "$nw" "$bw"); $(ratio "$nc" "$bc") |"
echo "| baseline | $bw ($(range "${base_wall[@]}")) | $bc ($(range "${base_cpu[@]}")) | 1 |"
echo "| no archive | $(median "${bare_wall[@]}") ($(range "${bare_wall[@]}")) | $(median "${bare_cpu[@]}") ($(range "${bare_cpu[@]}")) | $(ratio "$(median "${bare_wall[@]}")" "$bw"); $(ratio "$(median "${bare_cpu[@]}")" "$bc") |"
echo "baseline: $baseline_jar with ${baseline_opts[*]}"
