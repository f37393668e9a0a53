#!/usr/bin/env bash
# Where a warm hook call's time goes, on one real sidecar (bin/baton serve, temporary BATON_HOME, a real git
# repository for the samples' project):
#   1. the sidecar's CPU per hook call over each batch of 500 warm-up calls (how long its compilers keep working);
#   2. medians of RUNS interleaved rounds, each script run directly: baton-hook, minimal-hook.sh (the same request
#      without the script's checks), floor.sh against GET /v1/health;
#   3. the sidecar's CPU per health connection and per hook call, over 1,000 of each.
# Usage: bench/hook/parts.sh [RUNS [WARM_BATCHES]]   (default 300 rounds, 6 batches of 500; mvn -q package -DskipTests first)
set -euo pipefail
runs=${1:-300}
batches=${2:-6}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
hook=$root/hook-scripts/baton-hook
minimal=$root/bench/hook/minimal-hook.sh
floor=$root/bench/hook/floor.sh
[[ -f $root/sidecar/target/baton.jar ]] || { echo "bench: build first: mvn -q package -DskipTests" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/baton-hook-parts.XXXXXX")
sidecar_pid=
cleanup() {
  [[ -n $sidecar_pid ]] && kill "$sidecar_pid" 2>/dev/null && { wait "$sidecar_pid" 2>/dev/null || true; }
  rm -rf "$work"
}
trap cleanup EXIT
repo=$work/shop
source "$root/bench/sample-repo.sh"
sample_repo "$repo"
sed "s#/home/dev/shop#$repo#g" "$root/sidecar/src/test/resources/hook-samples/claude-pretooluse-edit.json" >"$work/edit.json"
export BATON_HOME=$work/home BATON_HOOK_TIMEOUT=30
mkdir -m 700 "$BATON_HOME"
"$root/bin/baton" serve --port 0 >"$work/sidecar.log" 2>&1 &
sidecar_pid=$!
for _ in $(seq 100); do [[ -s $BATON_HOME/endpoint ]] && break; sleep 0.1; done
[[ -s $BATON_HOME/endpoint ]] || { cat "$work/sidecar.log" >&2; exit 2; }
port=$(cut -d: -f2 "$BATON_HOME/endpoint")
ticks=$(getconf CLK_TCK)
cpu_ms() { awk '{print $14 + $15}' "/proc/$sidecar_pid/stat"; } # clock ticks
per_call() { awk -v a="$1" -v b="$2" -v n="$3" -v hz="$ticks" 'BEGIN {printf "%.2f", (b - a) * 1000 / hz / n}'; }
[[ -z $("$hook" claude PreToolUse <"$work/edit.json") ]] || { echo "bench: the hook denied the edit" >&2; exit 2; }
"$minimal" <"$work/edit.json" || { echo "bench: the minimal hook got no 200" >&2; exit 2; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((b = 1; b <= batches; b++)); do
  c0=$(cpu_ms)
  for _ in $(seq 500); do "$hook" claude PreToolUse <"$work/edit.json" >/dev/null; done
  echo "warm-up batch $b of 500 hook calls: sidecar CPU $(per_call "$c0" "$(cpu_ms)" 500) ms per call"
done

hook_t=() minimal_t=() health_t=()
for ((r = 0; r < runs; r++)); do
  t0=${EPOCHREALTIME/./}; "$hook" claude PreToolUse <"$work/edit.json" >/dev/null; t1=${EPOCHREALTIME/./}
  "$minimal" <"$work/edit.json"; t2=${EPOCHREALTIME/./}
  "$floor" "$port" GET /v1/health <"$work/edit.json"; t3=${EPOCHREALTIME/./}
  hook_t+=($((t1 - t0))) minimal_t+=($((t2 - t1))) health_t+=($((t3 - t2)))
done
source "$root/bench/stats.sh"
median_ms() { awk -v us="$(median "$@")" 'BEGIN {printf "%.2f", us / 1000}'; } # of values in µs
echo "baton-hook:                 median $(median_ms "${hook_t[@]}") ms"
echo "minimal-hook.sh:            median $(median_ms "${minimal_t[@]}") ms"
echo "floor.sh -> GET /v1/health: median $(median_ms "${health_t[@]}") ms"

c0=$(cpu_ms)
for _ in $(seq 1000); do "$floor" "$port" GET /v1/health <"$work/edit.json"; done
c1=$(cpu_ms)
for _ in $(seq 1000); do "$hook" claude PreToolUse <"$work/edit.json" >/dev/null; done
c2=$(cpu_ms)
echo "sidecar CPU per health connection $(per_call "$c0" "$c1" 1000) ms, per hook call $(per_call "$c1" "$c2" 1000) ms"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
