#!/usr/bin/env bash
# Hook benchmark: whole-process time of one PreToolUse hook call (script start to exit, sidecar warm) for an
# edit that goes through and for a denied edit, beside two jq + sqlite3 baselines doing the same re-entrant
# check (baseline-hook.sh as such hooks are usually written, baseline-hook-tuned.sh with the fewest tool runs),
# all measured in the same run with hyperfine. Usage, from the repository root:
#   mvn -q -o package -DskipTests && bench/hook/run.sh [RUNS]      (RUNS per case, default 300)
# Needs: java, git, hyperfine, jq, sqlite3, curl (apt-get install -y hyperfine jq sqlite3 curl).
# Writes bench/results/hook-<timestamp>.json (hyperfine's export, every run's time) and prints a summary.
set -euo pipefail

runs=${1:-300}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
jar=$root/sidecar/target/baton.jar
hook=$root/hook-scripts/baton-hook
baseline=$root/bench/hook/baseline-hook.sh
tuned=$root/bench/hook/baseline-hook-tuned.sh
samples=$root/sidecar/src/test/resources/hook-samples
for tool in java git hyperfine jq sqlite3 curl; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is missing (apt-get install -y $tool)" >&2; exit 2; }
done
[[ -f $jar ]] || { echo "bench: $jar is missing; build it with: mvn -q package -DskipTests" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/baton-hook-bench.XXXXXX")
sidecar_pid=
cleanup() {
  [[ -n $sidecar_pid ]] && kill "$sidecar_pid" 2>/dev/null && wait "$sidecar_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# A repository standing in for the samples' /home/dev/shop, and the two sessions' payloads.
repo=$work/shop
git init -q "$repo"
mkdir -p "$repo/src/main/java/shop"
echo 'class Cart {}' >"$repo/src/main/java/shop/Cart.java"
git -C "$repo" add -A && git -C "$repo" -c user.email=bench@example.com -c user.name=bench commit -qm init
session_a=3f2a9c1e-7b4d-4e0a-9d2f-1c8b5e6a7f01
session_b=7d0e1f2a-0000-4b1c-9d8e-aaaaaaaaaaaa
sed "s#/home/dev/shop#$repo#g" "$samples/claude-pretooluse-edit.json" >"$work/edit-a.json"
sed "s/$session_a/$session_b/" "$work/edit-a.json" >"$work/edit-b.json"

# The sidecar, started as `baton serve` starts it, in its own BATON_HOME.
export BATON_HOME=$work/home
mkdir -m 700 "$BATON_HOME"
BATON_JAR=$jar "$root/bin/baton" serve --port 0 >"$work/sidecar.log" 2>&1 &
sidecar_pid=$!
for _ in $(seq 100); do [[ -s $BATON_HOME/endpoint ]] && break; sleep 0.1; done
[[ -s $BATON_HOME/endpoint ]] || { cat "$work/sidecar.log" >&2; exit 2; }
endpoint=$(<"$BATON_HOME/endpoint")
token=$(<"$BATON_HOME/token")
cat >"$work/release-a.sh" <<REL
#!/usr/bin/env bash
curl -sf -o /dev/null -H 'Authorization: Bearer $token' -H 'Content-Type: application/json' \\
  -d '{"session_id":"$session_a","all":true}' http://$endpoint/v1/locks/release
REL
chmod +x "$work/release-a.sh"

# The baseline's database, WAL like Baton's.
db=$work/baseline.db
sqlite3 "$db" 'PRAGMA journal_mode=WAL; CREATE TABLE locks (file TEXT PRIMARY KEY, session_id TEXT NOT NULL,
  acquired_ms INTEGER NOT NULL, heartbeat_ms INTEGER NOT NULL);' >/dev/null

# Warm the sidecar's JIT and check that both hooks behave as the cases say.
for _ in $(seq 500); do "$hook" claude PreToolUse <"$work/edit-a.json" >/dev/null; done
[[ -z $("$hook" claude PreToolUse <"$work/edit-a.json") ]] || { echo "bench: the holder was denied" >&2; exit 2; }
[[ $("$hook" claude PreToolUse <"$work/edit-b.json") == *'"deny"'* ]] || { echo "bench: no denial" >&2; exit 2; }
for script in "$baseline" "$tuned"; do
  [[ -z $("$script" "$db" <"$work/edit-a.json") ]] || { echo "bench: $script denied the holder" >&2; exit 2; }
  [[ $("$script" "$db" <"$work/edit-b.json") == *'"deny"'* ]] || { echo "bench: no denial from $script" >&2; exit 2; }
done

mkdir -p "$root/bench/results"
out=$root/bench/results/hook-$(date +%Y%m%d-%H%M%S).json
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
# Each hook reads the payload from its stdin (here the payload file; the hook reads a pipe from an agent the
# same way, in blocks), so the time is the hook process's own, from start to exit.
release_baseline="sqlite3 $db \"DELETE FROM locks WHERE session_id = '$session_a'\""
hyperfine --shell bash --warmup 20 --runs "$runs" --export-json "$out" --style basic \
  --prepare "$work/release-a.sh" --prepare : --prepare : \
  --prepare "$release_baseline" --prepare : --prepare : \
  --prepare "$release_baseline" --prepare : --prepare : --prepare : \
  -n "baton: edit of a free file (lock taken)" "$hook claude PreToolUse <$work/edit-a.json" \
  -n "baton: holder edits again (re-entrant)" "$hook claude PreToolUse <$work/edit-a.json" \
  -n "baton: denied edit" "$hook claude PreToolUse <$work/edit-b.json" \
  -n "baseline: edit of a free file (lock taken)" "$baseline $db <$work/edit-a.json" \
  -n "baseline: holder edits again (re-entrant)" "$baseline $db <$work/edit-a.json" \
  -n "baseline: denied edit" "$baseline $db <$work/edit-b.json" \
  -n "tuned baseline: edit of a free file (lock taken)" "$tuned $db <$work/edit-a.json" \
  -n "tuned baseline: holder edits again (re-entrant)" "$tuned $db <$work/edit-a.json" \
  -n "tuned baseline: denied edit" "$tuned $db <$work/edit-b.json" \
  -n "floor: the same hook switched off (CLAUDE_FILE_LOCK=0), bash start-up only" \
  "CLAUDE_FILE_LOCK=0 $hook claude PreToolUse <$work/edit-a.json" >/dev/null
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

echo "machine: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p'), Linux $(uname -r), bash ${BASH_VERSION%%(*}, $(java -version 2>&1 | head -1)"
echo "load average before/after: $load_before / $load_after; $runs runs per case; results: ${out#"$root"/}"
jq -r '.results[] | (.times | sort) as $t
  | [.command, (.median * 1000 * 100 | round / 100), ($t[(($t | length) * 0.9 | floor)] * 1000 * 100 | round / 100)]
  | "\(.[0]): median \(.[1]) ms, p90 \(.[2]) ms"' "$out"
jq -r '[.results[] | .median] as $m
  | def x(a; b): ($m[a] / $m[b] * 10 | round / 10 | tostring) + "x";
  "speed-up over the baseline (median / median): free \(x(3; 0)), re-entrant \(x(4; 1)), denied \(x(5; 2))",
  "speed-up over the tuned baseline: free \(x(6; 0)), re-entrant \(x(7; 1)), denied \(x(8; 2))"' "$out"
