#!/usr/bin/env bash
# The release archive against the JDK launcher, in one run: sizes, the sidecar's start-up (spawn to first answered
# /v1/health, and its CPU time by then), a short command's run (`baton --version`) and the sidecar's idle resident set.
#   release       the archive installed as a user without a JDK installs it (unpacked into a temporary directory,
#                 `bin/baton install --claude` with a PATH holding no java), then the launcher that install wrote:
#                 the archive's runtime copied into place, and the class-data archive install made with it
#   JDK launcher  the checkout's bin/baton on the machine's JDK, with the class-data archive the build made
# Starts alternate between the two, N of each after one start each that is not counted (it makes the home's
# database and what a start keeps there, as a user's first start does); the idle runs too.
# Usage: bench/release.sh [STARTS [IDLE_SECONDS [IDLE_RUNS]]]  (default 7, 10 and 3; after mvn -q package;
#                                                             needs curl, git)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${1:-7}
idle=${2:-10}
archive=$(ls "$root"/release/target/baton-*-linux-x64.tar.gz 2>/dev/null | head -1)
[[ -n $archive && -f $root/sidecar/target/baton.jsa ]] || { echo "bench: build first: mvn -q package -DskipTests" >&2; exit 2; }
for tool in curl git; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is missing (apt-get install -y $tool)" >&2; exit 2; }
done
source "$root/bench/stats.sh"
source "$root/bench/sample-repo.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/baton-release.XXXXXX")
pid=
cleanup() {
  if [[ -n $pid ]]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The user without a JDK: a PATH of a few programs, none of them java.
tools=$work/tools
mkdir -p "$tools" "$work/user" "$work/download"
for tool in bash sh env cat mkdir rm ls sleep tar gzip git setsid nohup ps uname; do
  ln -sf "$(command -v "$tool")" "$tools/$tool"
done
PATH=$tools tar -xzf "$archive" -C "$work/download"
unpacked=$(echo "$work"/download/baton-*)
HOME=$work/user PATH=$tools "$unpacked/bin/baton" install --claude >"$work/install.log" 2>&1 \
  || { echo "bench: install from the archive failed:" >&2; cat "$work/install.log" >&2; exit 1; }
release=$work/user/.local/bin/baton
jdk=$root/bin/baton
jdk_home=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.home = //p')

mib() { awk -v b="$1" 'BEGIN {printf "%.1f", b / 1048576}'; }
echo "Sizes, MiB:"
echo "| | release | JDK launcher |"
echo "|---|---|---|"
echo "| download | $(mib "$(stat -c %s "$archive")") ($(basename "$archive")) | — |"
echo "| unpacked | $(mib "$(du -sb "$unpacked" | cut -f1)") (runtime $(mib "$(du -sb "$unpacked/runtime" | cut -f1)")) | — |"
echo "| installed | $(mib "$(du -sb "$work/user/.local/share/baton" | cut -f1)") (~/.local/share/baton) | $(mib "$(du -sbL "$jdk_home" 2>/dev/null | cut -f1)") (the JDK, $jdk_home) + $(mib "$(( $(stat -c %s "$root/sidecar/target/baton.jar") + $(stat -c %s "$root/sidecar/target/baton.jsa") ))") (jar and archive) |"

# Starts one sidecar of a variant ($1: release|jdk) on its own home and leaves it running as $pid; sets $started to
# the ms from spawn to the first answered health request, and $cpu to its CPU ms by then.
serve() {
  local home=$work/home-$1 launcher=$jdk
  [[ $1 == release ]] && launcher=$release
  [[ -d $home ]] || mkdir -m 700 "$home"
  local t0; t0=$(date +%s%N)
  BATON_HOME=$home "$launcher" serve --port 0 >>"$home/out.log" 2>&1 &
  pid=$!
  until [[ -s $home/endpoint ]] && curl -sf "http://127.0.0.1:$(cut -d: -f2 "$home/endpoint")/v1/health" >/dev/null 2>&1; do
    kill -0 "$pid" 2>/dev/null || { echo "bench: the $1 sidecar exited; see $home/out.log" >&2; exit 1; }
    sleep 0.01
  done
  started=$(( ($(date +%s%N) - t0) / 1000000 ))
  cpu=$(awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15) * 1000 / hz}' "/proc/$pid/stat")
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=; }
version() { # ms of `baton --version` with the variant's launcher
  local launcher=$jdk t0
  [[ $1 == release ]] && launcher=$release
  t0=$(date +%s%N)
  "$launcher" --version >/dev/null
  echo $(( ($(date +%s%N) - t0) / 1000000 ))
}

serve release; stop; serve jdk; stop
declare -A walls cpus clis
for ((i = 0; i < runs; i++)); do
  for variant in release jdk; do
    serve "$variant"; stop
    walls[$variant]+="$started " cpus[$variant]+="$cpu "
    clis[$variant]+="$(version "$variant") "
  done
done

# Idle: 15 real hook calls (SessionStart, two edits, PostToolUse, Stop, three times) on a real repository, then rest.
repo=$work/shop
sample_repo "$repo"
samples=$root/sidecar/src/test/resources/hook-samples
calls=(claude-sessionstart:SessionStart claude-pretooluse-edit:PreToolUse claude-posttooluse-write:PostToolUse
  claude-pretooluse-write:PreToolUse claude-stop:Stop)
for call in "${calls[@]}"; do sed "s#/home/dev/shop#$repo#g" "$samples/${call%:*}.json" >"$work/${call%:*}.json"; done
declare -A rss
for ((i = 0; i < ${3:-3}; i++)); do
  for variant in release jdk; do
    serve "$variant"
    for round in 1 2 3; do
      for call in "${calls[@]}"; do
        BATON_HOME=$work/home-$variant BATON_HOOK_TIMEOUT=10 "$root/hook-scripts/baton-hook" claude "${call#*:}" \
          <"$work/${call%:*}.json" >/dev/null || true
      done
    done
    sleep "$idle" # the sidecar idles with its sweeper running: what it keeps after the calls
    rss[$variant]+="$(awk '/^VmRSS:/ {printf "%.0f", $2 / 1024}' "/proc/$pid/status") "
    stop
  done
done

row() { # label, release values, JDK values
  local r j
  r=$(median $2); j=$(median $3)
  echo "| $1 | $r ($(range $2)) | $j ($(range $3)) | $(ratio "$r" "$j") |"
}
echo
echo "Median (range), alternating; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| | release | JDK launcher | release / JDK |"
echo "|---|---|---|---|"
row "sidecar start, spawn to first served request, ms ($runs each)" "${walls[release]}" "${walls[jdk]}"
row "sidecar CPU by then, ms" "${cpus[release]}" "${cpus[jdk]}"
row "\`baton --version\`, ms ($runs each)" "${clis[release]}" "${clis[jdk]}"
row "idle RSS after 15 hook calls and $idle s, MiB (${3:-3} each)" "${rss[release]}" "${rss[jdk]}"
echo "JDK launcher: bin/baton on $jdk_home ($(java -version 2>&1 | head -1)); release: $(basename "$archive")"
