#!/usr/bin/env bash
# The sidecar's memory: its resident set (VmRSS) idle after a few hook calls, and with 100,000 locks held, for the
# launcher's JVM options (bin/baton serve) against a baseline, in one run, alternating (new, baseline, new, …).
# Usage: bench/footprint.sh [RUNS [IDLE_SECONDS]]      (default 3 runs of each, 10 s idle; needs curl, git)
#   BASELINE_OPTS   the baseline's JVM options (default: the launchers' options before they were measured,
#                   -XX:+UseSerialGC -Xshare:auto -Xmx768m); the baseline runs java -jar with them and the archive
#   BASELINE_JAR    the baseline's jar (default: this build's sidecar/target/baton.jar); its .jsa beside it is used
#   FOOTPRINT_NMT=1 also prints the JVM's native memory summary (jcmd VM.native_memory) of each variant's last run
# A sidecar is the real one on a temporary BATON_HOME and port: the hook calls are the real hook script run with
# the sample payloads of sidecar/src/test/resources/hook-samples on a real git repository; the locks are taken
# as LockBench takes them, by one session in requests of 1,000 files.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${1:-3}
idle=${2:-10}
jar=$root/sidecar/target/baton.jar
baseline_jar=${BASELINE_JAR:-$jar}
baseline_opts=${BASELINE_OPTS:--XX:+UseSerialGC -Xshare:auto -Xmx768m}
samples=$root/sidecar/src/test/resources/hook-samples
for tool in curl git; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is missing (apt-get install -y $tool)" >&2; exit 2; }
done
[[ -f $jar && -f $baseline_jar ]] || { echo "bench: build first: mvn -q package -DskipTests" >&2; exit 2; }
java_bin=java
[[ -n ${JAVA_HOME:-} ]] && java_bin=$JAVA_HOME/bin/java

work=$(mktemp -d "${TMPDIR:-/tmp}/baton-footprint.XXXXXX")
sidecar_pid=
cleanup() {
  if [[ -n $sidecar_pid ]]; then kill "$sidecar_pid" 2>/dev/null || true; wait "$sidecar_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# A repository standing in for the samples' /home/dev/shop.
repo=$work/shop
source "$root/bench/sample-repo.sh"
sample_repo "$repo"
# Each call: the sample's name and its hook event.
calls=(claude-sessionstart:SessionStart claude-pretooluse-edit:PreToolUse claude-posttooluse-write:PostToolUse
  claude-pretooluse-write:PreToolUse claude-stop:Stop)
for call in "${calls[@]}"; do sed "s#/home/dev/shop#$repo#g" "$samples/${call%:*}.json" >"$work/${call%:*}.json"; done

# The 100 requests that take 100,000 locks, as LockBench takes them.
for ((start = 0; start < 100000; start += 1000)); do
  files=
  for ((i = start; i < start + 1000; i++)); do files+="${files:+,}\"/held/dir-$((i % 97))/f-$i\""; done
  printf '{"session_id":"filler","files":[%s]}' "$files" >"$work/locks-$start.json"
done

rss() { awk '/^VmRSS:/ {printf "%.0f", $2 / 1024}' "/proc/$1/status"; }

# Starts one sidecar ($1: new|baseline), measures it into idle_mib and held_mib, and stops it.
measure() {
  local home=$work/home-$1
  rm -rf "$home"; mkdir -m 700 "$home"
  local nmt=()
  [[ ${FOOTPRINT_NMT:-} == 1 ]] && nmt=(-XX:NativeMemoryTracking=summary)
  if [[ $1 == new ]]; then
    BATON_HOME=$home BATON_JAVA_OPTS="${BATON_JAVA_OPTS:-} ${nmt[*]}" "$root/bin/baton" serve --port 0 >"$work/$1.log" 2>&1 &
  else
    local archive=()
    [[ -f ${baseline_jar%.jar}.jsa ]] && archive=("-XX:SharedArchiveFile=${baseline_jar%.jar}.jsa" -Xlog:cds*=off -Xlog:class+path=off)
    # shellcheck disable=SC2086 # the options are words
    BATON_HOME=$home "$java_bin" $baseline_opts "${nmt[@]}" "${archive[@]}" -jar "$baseline_jar" serve --port 0 \
      >"$work/$1.log" 2>&1 &
  fi
  sidecar_pid=$!
  for _ in $(seq 600); do [[ -s $home/endpoint ]] && break; sleep 0.05; done
  [[ -s $home/endpoint ]] || { echo "bench: the $1 sidecar did not start:" >&2; cat "$work/$1.log" >&2; exit 1; }
  local endpoint token
  endpoint=$(<"$home/endpoint"); token=$(<"$home/token")
  for round in 1 2 3; do
    for call in "${calls[@]}"; do
      BATON_HOME=$home BATON_HOOK_TIMEOUT=10 "$root/hook-scripts/baton-hook" claude "${call#*:}" \
        <"$work/${call%:*}.json" >/dev/null || true
    done
  done
  sleep "$idle" # the sidecar idles: what it holds after the calls, with its sweeper running
  idle_mib=$(rss "$sidecar_pid")
  local auth=(-H "Authorization: Bearer $token" -H 'Content-Type: application/json')
  local key
  key=$(curl -sf "${auth[@]}" -d '{"session_id":"filler","agent":"api"}' "http://$endpoint/v1/sessions" \
    | sed -n 's/.*"key":"\([^"]*\)".*/\1/p')
  local body
  for body in "$work"/locks-*.json; do
    curl -sf -o /dev/null "${auth[@]}" -H "X-Baton-Key: $key" --data-binary "@$body" "http://$endpoint/v1/locks/acquire" \
      || { echo "bench: taking locks failed" >&2; exit 1; }
  done
  sleep 2
  held_mib=$(rss "$sidecar_pid")
  if [[ ${FOOTPRINT_NMT:-} == 1 ]]; then
    echo "--- $1: native memory with 100,000 locks held" >&2
    jcmd "$sidecar_pid" VM.native_memory summary | sed -n '/^Total/,/^$/p;/^-/p' | grep -v '^$' | sed 's/^/  /' >&2
  fi
  kill "$sidecar_pid"; wait "$sidecar_pid" 2>/dev/null || true; sidecar_pid=
}

new_idle=() new_held=() base_idle=() base_held=()
for ((run = 0; run < runs; run++)); do
  measure new; new_idle+=("$idle_mib"); new_held+=("$held_mib")
  measure baseline; base_idle+=("$idle_mib"); base_held+=("$held_mib")
  echo "run $((run + 1)) of $runs: new ${new_idle[-1]} / ${new_held[-1]} MiB, baseline $idle_mib / $held_mib MiB" >&2
done
source "$root/bench/stats.sh"
ni=$(median "${new_idle[@]}"); nh=$(median "${new_held[@]}"); bi=$(median "${base_idle[@]}"); bh=$(median "${base_held[@]}")
echo "RSS, median (range) of $runs runs each, MiB:"
echo "| | bin/baton serve | baseline | ratio |"
echo "|---|---|---|---|"
echo "| idle after ${#calls[@]}×3 hook calls | $ni ($(range "${new_idle[@]}")) | $bi ($(range "${base_idle[@]}")) | $(ratio "$ni" "$bi") |"
echo "| 100,000 locks held | $nh ($(range "${new_held[@]}")) | $bh ($(range "${base_held[@]}")) | $(ratio "$nh" "$bh") |"
echo "baseline: $baseline_jar with $baseline_opts"
