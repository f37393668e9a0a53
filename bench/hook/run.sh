#!/usr/bin/env bash
# Hook benchmark: whole-process time of one PreToolUse hook call (process start to exit, sidecar warm) for an
# edit that goes through and for a denied edit, beside two jq + sqlite3 baselines doing the same re-entrant
# check (baseline-hook.sh as such hooks are usually written, baseline-hook-tuned.sh with the fewest tool runs),
# and beside the floor: floor.sh, the least a hook can do (read stdin, one HTTP/1.0 round trip over /dev/tcp),
# against FloorServer.java (answers at once) and against the sidecar's GET /v1/health. The hook and the floors
# are also run as the agent runs them, `/bin/sh -c '…'` with the payload on stdin. All in the same run.
# Usage, from the repository root:
#   mvn -q -o package -DskipTests && bench/hook/run.sh [RUNS] [floor]   (RUNS per case, default 300;
#                                       `floor`: only the hook and the floors run through /bin/sh -c)
#   BEFORE=DIR bench/hook/run.sh RUNS floor   also runs DIR/baton-hook against a sidecar from DIR/baton.jar (an
#                                       earlier build's copies, with the baton-sidecar*.bash it sources if it
#                                       does) in the same rounds, to compare two builds
# Needs: java, git, jq, sqlite3, curl (apt-get install -y jq sqlite3 curl).
# Writes every run's time to bench/results/hook-<timestamp>.tsv and prints median and p90 per case.
#
# The loop below times each hook as its parent sees it, from fork to exit, with bash's EPOCHREALTIME (no
# process of its own). It takes the cases in turn, round after round, so a change in the machine's load hits
# every case alike. (hyperfine 1.15 cannot give a command stdin without a shell, and subtracting an estimate
# of the shell's start-up is unreliable below a few milliseconds, as hyperfine itself warns.)
set -euo pipefail

runs=${1:-300}
only_floor=${2:-}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
jar=$root/sidecar/target/baton.jar
hook=$root/hook-scripts/baton-hook
baseline=$root/bench/hook/baseline-hook.sh
tuned=$root/bench/hook/baseline-hook-tuned.sh
floor=$root/bench/hook/floor.sh
samples=$root/sidecar/src/test/resources/hook-samples
for tool in java git jq sqlite3 curl; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is missing (apt-get install -y $tool)" >&2; exit 2; }
done
[[ -f $jar ]] || { echo "bench: $jar is missing; build it with: mvn -q package -DskipTests" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/baton-hook-bench.XXXXXX")
sidecar_pid= floor_server_pid= before_pid=
# A killed server's `wait` fails (status 143), which under `set -e` would end the trap before the rm.
cleanup() {
  local pid
  for pid in "$sidecar_pid" "$before_pid" "$floor_server_pid"; do
    [[ -n $pid ]] && kill "$pid" 2>/dev/null && { wait "$pid" 2>/dev/null || true; }
  done
  rm -rf "$work"
}
trap cleanup EXIT

# A repository standing in for the samples' /home/dev/shop, and the two sessions' payloads.
repo=$work/shop
source "$root/bench/sample-repo.sh"
sample_repo "$repo"
session_a=3f2a9c1e-7b4d-4e0a-9d2f-1c8b5e6a7f01
session_b=7d0e1f2a-0000-4b1c-9d8e-aaaaaaaaaaaa
sed "s#/home/dev/shop#$repo#g" "$samples/claude-pretooluse-edit.json" >"$work/edit-a.json"
sed "s/$session_a/$session_b/" "$work/edit-a.json" >"$work/edit-b.json"

# The sidecar, started as `baton serve` starts it, in its own BATON_HOME.
export BATON_HOME=$work/home BATON_HOOK_TIMEOUT=30 # a loaded machine must not turn a slow call into a failure
mkdir -m 700 "$BATON_HOME"
BATON_JAR=$jar "$root/bin/baton" serve --port 0 >"$work/sidecar.log" 2>&1 &
sidecar_pid=$!
for _ in $(seq 100); do [[ -s $BATON_HOME/endpoint ]] && break; sleep 0.1; done
[[ -s $BATON_HOME/endpoint ]] || { cat "$work/sidecar.log" >&2; exit 2; }
endpoint=$(<"$BATON_HOME/endpoint")
token=$(<"$BATON_HOME/token")
# Releasing acts for session A: the proof is curl's connection, made (like the hooks') below A's agent process.
cat >"$work/release-a.sh" <<REL
#!/usr/bin/env bash
curl -sf -o /dev/null -H 'Authorization: Bearer $token' -H 'Content-Type: application/json' \\
  -d '{"session_id":"$session_a","all":true}' http://$endpoint/v1/locks/release
REL
chmod +x "$work/release-a.sh"

# A sidecar serves all day, so it is measured warm: its compilers were still at work after 500 calls (its CPU per
# call fell from 3.9 to 2.0 ms between the first 500 and the fourth 500 on a quiet machine). WARM_CALLS overrides.
warm_calls=${WARM_CALLS:-3000}

# The earlier build, in a home of its own, warmed like the other.
before=${BEFORE:-}
if [[ -n $before ]]; then
  before_home=$work/before-home
  mkdir -m 700 "$before_home"
  BATON_HOME=$before_home BATON_JAR=$before/baton.jar "$root/bin/baton" serve --port 0 >"$work/before.log" 2>&1 &
  before_pid=$!
  for _ in $(seq 100); do [[ -s $before_home/endpoint ]] && break; sleep 0.1; done
  [[ -s $before_home/endpoint ]] || { cat "$work/before.log" >&2; exit 2; }
  before_endpoint=$(<"$before_home/endpoint")
  before_port=${before_endpoint#*:}
  for _ in $(seq "$warm_calls"); do BATON_HOME=$before_home "$before/baton-hook" claude PreToolUse <"$work/edit-a.json" >/dev/null; done
  [[ -z $(BATON_HOME=$before_home "$before/baton-hook" claude PreToolUse <"$work/edit-a.json") ]] ||
    { echo "bench: the earlier build denied the holder" >&2; exit 2; }
fi

# The trivial server of the floor.
java "$root/bench/hook/FloorServer.java" "$work/floor-port" >"$work/floor-server.log" 2>&1 &
floor_server_pid=$!
for _ in $(seq 200); do [[ -s $work/floor-port ]] && break; sleep 0.1; done
[[ -s $work/floor-port ]] || { cat "$work/floor-server.log" >&2; exit 2; }
floor_port=$(<"$work/floor-port")

# The baseline's database, WAL like Baton's.
db=$work/baseline.db
sqlite3 "$db" 'PRAGMA journal_mode=WAL; CREATE TABLE locks (file TEXT PRIMARY KEY, session_id TEXT NOT NULL,
  acquired_ms INTEGER NOT NULL, heartbeat_ms INTEGER NOT NULL);' >/dev/null

# Warm the sidecar's JIT and check that both hooks behave as the cases say.
for _ in $(seq "$warm_calls"); do "$hook" claude PreToolUse <"$work/edit-a.json" >/dev/null; done
[[ -z $("$hook" claude PreToolUse <"$work/edit-a.json") ]] || { echo "bench: the holder was denied" >&2; exit 2; }
[[ $("$hook" claude PreToolUse <"$work/edit-b.json") == *'"deny"'* ]] || { echo "bench: no denial" >&2; exit 2; }
"$floor" "$floor_port" <"$work/edit-a.json" || { echo "bench: the floor server did not answer" >&2; exit 2; }
"$floor" "${endpoint#*:}" GET /v1/health </dev/null || { echo "bench: the sidecar's health did not answer" >&2; exit 2; }
for script in "$baseline" "$tuned"; do
  [[ -z $("$script" "$db" <"$work/edit-a.json") ]] || { echo "bench: $script denied the holder" >&2; exit 2; }
  [[ $("$script" "$db" <"$work/edit-b.json") == *'"deny"'* ]] || { echo "bench: no denial from $script" >&2; exit 2; }
done

# The cases, in the order of a round: each names a preparation (not timed) and the timed command.
# Within a round the state carries over: A takes the free file, edits it again, then B is denied.
names=(
  "baton: edit of a free file (lock taken)" "baton: holder edits again (re-entrant)" "baton: denied edit"
  "baseline: edit of a free file (lock taken)" "baseline: holder edits again (re-entrant)" "baseline: denied edit"
  "tuned baseline: edit of a free file (lock taken)" "tuned baseline: holder edits again (re-entrant)"
  "tuned baseline: denied edit"
  "floor: the hook switched off (CLAUDE_FILE_LOCK=0): bash start-up" "floor: /bin/true: starting any process"
  "sh -c baton: holder edits again (re-entrant)" "sh -c floor.sh: trivial server"
  "sh -c floor.sh: sidecar GET /v1/health" "sh -c /bin/true" "sh -c baton, earlier build: holder edits again"
  "sh -c floor.sh: earlier build's GET /v1/health")
cases=({0..14})
[[ $only_floor == floor ]] && cases=(11 12 13 14)
# The earlier build's sidecar gets the same traffic as this build's, a health request after each hook call: the
# CPU read around a hook call also holds what the sidecar still does for the connection before it (with health
# for one sidecar only, two runs of one build against itself gave 2.30 against 1.50 ms per call).
[[ -n $before ]] && cases+=(15 16)
release_baseline() { sqlite3 "$db" "DELETE FROM locks WHERE session_id = '$session_a'"; }
prepare() {
  case $1 in
    0) "$work/release-a.sh" ;;
    3 | 6) release_baseline ;;
  esac
}
run_case() {
  case $1 in
    0 | 1) "$hook" claude PreToolUse <"$work/edit-a.json" ;;
    2) "$hook" claude PreToolUse <"$work/edit-b.json" ;;
    3 | 4) "$baseline" "$db" <"$work/edit-a.json" ;;
    5) "$baseline" "$db" <"$work/edit-b.json" ;;
    6 | 7) "$tuned" "$db" <"$work/edit-a.json" ;;
    8) "$tuned" "$db" <"$work/edit-b.json" ;;
    9) CLAUDE_FILE_LOCK=0 "$hook" claude PreToolUse <"$work/edit-a.json" ;;
    10) /bin/true <"$work/edit-a.json" ;;
    11) /bin/sh -c "'$hook' claude PreToolUse" <"$work/edit-a.json" ;;
    12) /bin/sh -c "'$floor' $floor_port" <"$work/edit-a.json" ;;
    13) /bin/sh -c "'$floor' ${endpoint#*:} GET /v1/health" <"$work/edit-a.json" ;;
    14) /bin/sh -c /bin/true <"$work/edit-a.json" ;;
    15) BATON_HOME=$before_home /bin/sh -c "'$before/baton-hook' claude PreToolUse" <"$work/edit-a.json" ;;
    16) /bin/sh -c "'$floor' $before_port GET /v1/health" <"$work/edit-a.json" ;;
  esac
}

mkdir -p "$root/bench/results"
out=$root/bench/results/hook-$(date +%Y%m%d-%H%M%S).tsv
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
# The sidecar's CPU time (user + system, in clock ticks) around each timed sh -c hook call, summed per case.
declare -a cpu_ticks
ticks_of() { local -a fields; read -ra fields <"/proc/$1/stat"; ticks=$((fields[13] + fields[14])); }
tick_hz=$(getconf CLK_TCK)
warmup=20
: >"$out"
for ((round = 0; round < warmup + runs; round++)); do
  for c in "${cases[@]}"; do
    prepare "$c"
    cpu_pid=
    case $c in 11) cpu_pid=$sidecar_pid ;; 15) cpu_pid=$before_pid ;; esac
    [[ -z $cpu_pid ]] || { ticks_of "$cpu_pid"; ticks_before=$ticks; }
    t0=${EPOCHREALTIME/./}
    run_case "$c" >/dev/null
    t1=${EPOCHREALTIME/./}
    ((round < warmup)) || printf '%d\t%d\n' "$c" $((t1 - t0)) >>"$out"
    if [[ -n $cpu_pid ]] && ((round >= warmup)); then
      ticks_of "$cpu_pid"
      cpu_ticks[c]=$((${cpu_ticks[c]:-0} + ticks - ticks_before))
    fi
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# Median and p90 of one case, in ms, from the microseconds in $out.
stats() {
  local -a sorted
  mapfile -t sorted < <(awk -F'\t' -v c="$1" '$1 == c { print $2 }' "$out" | sort -n)
  local n=${#sorted[@]}
  awk -v m="${sorted[n / 2]}" -v p="${sorted[n * 9 / 10]}" 'BEGIN { printf "%.2f %.2f\n", m / 1000, p / 1000 }'
}
echo "machine: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p'), Linux $(uname -r), bash ${BASH_VERSION%%(*}, $(java -version 2>&1 | head -1)"
echo "load average before/after: $load_before / $load_after; $runs runs per case; times: ${out#"$root"/}"
declare -a median
for c in "${cases[@]}"; do
  read -r m p < <(stats "$c")
  median[c]=$m
  printf '%-58s median %6.2f ms   p90 %6.2f ms\n' "${names[c]}:" "$m" "$p"
done
ratio() { awk -v a="${median[$1]}" -v b="${median[$2]}" 'BEGIN { printf "%.1fx", a / b }'; }
ratio2() { awk -v a="${median[$1]}" -v b="${median[$2]}" 'BEGIN { printf "%.2fx", a / b }'; }
if [[ $only_floor != floor ]]; then
  echo "speed-up over the baseline (median / median): free $(ratio 3 0), re-entrant $(ratio 4 1), denied $(ratio 5 2)"
  echo "speed-up over the tuned baseline: free $(ratio 6 0), re-entrant $(ratio 7 1), denied $(ratio 8 2)"
fi
echo "hook over the floor (sh -c, median / median): $(ratio2 11 12) of floor.sh to the trivial server," \
  "$(ratio2 11 13) of floor.sh to the sidecar's health; the sidecar's health over the trivial server $(ratio2 13 12)"
[[ -z $before ]] || echo "earlier build over the floor: $(ratio2 15 12); this build over the earlier one: $(ratio2 11 15)"
cpu_ms() { awk -v t="${cpu_ticks[$1]:-0}" -v hz="$tick_hz" -v n="$runs" 'BEGIN { printf "%.2f ms", t * 1000 / hz / n }'; }
echo "sidecar CPU per sh -c hook call (user + system, /proc/PID/stat): this build $(cpu_ms 11)${before:+, earlier build $(cpu_ms 15)}"
