#!/usr/bin/env bash
# The first hook call when no sidecar is running yet, as an agent's first edit after login meets it: the hook
# timed from its start to its exit, N rounds of each variant, alternating:
#   on demand          the hook starts `bin/baton serve` itself (BATON_BIN) and polls until it answers;
#   socket activation  a listener on 127.0.0.1 that, as systemd does for baton.socket, starts `bin/baton serve` at
#                      the first connection with the listening socket as its standard input (here: perl); the hook
#                      finds it through BATON_HOME/service-socket, connects, and polls until the sidecar answers;
#   already running    the next call to that sidecar, as every call meets it once the service started it at login.
# Usage: bench/service-start.sh [N]   (default 5; needs perl and a built jar: mvn -q package -DskipTests)
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -f sidecar/target/baton.jar ]] || { echo "bench: build first: mvn -q package -DskipTests" >&2; exit 2; }
runs=${1:-5}
payload='{"session_id":"bench","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/tmp/baton-bench-file","content":"x"}}'
activator='use IO::Socket::INET; use IO::Select;
my ($portfile, @command) = @ARGV;
my $l = IO::Socket::INET->new(Listen => 128, LocalAddr => "127.0.0.1", LocalPort => 0) or die "listen: $!";
open(my $o, ">", $portfile) or die; print $o $l->sockport, "\n"; close $o;
IO::Select->new($l)->can_read();
open(STDIN, "<&", $l) or die "dup: $!";
exec { $command[0] } @command or die "exec: $!";'

hook() { # runs the hook once against $1 (BATON_HOME) with BATON_BIN=$2; prints its milliseconds
  local t0=${EPOCHREALTIME/./} code=0
  printf '%s' "$payload" | BATON_HOME=$1 BATON_BIN=$2 BATON_HOOK_TIMEOUT=6 BATON_HOOK_START_TIMEOUT=60 \
    hook-scripts/baton-hook claude PreToolUse >"$1/hook.out" 2>&1 || code=$?
  ((code == 0)) || { echo "bench: the hook exited $code: $(cat "$1/hook.out")" >&2; exit 1; }
  echo $(((${EPOCHREALTIME/./} - t0) / 1000))
}
stop() { # stops the sidecar of home $1 and removes the home
  local pid; pid=$(<"$1/sidecar.pid")
  kill "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
  rm -rf "$1"
}
on_demand() {
  local home; home=$(mktemp -d)
  hook "$home" "$PWD/bin/baton"
  stop "$home"
}
activated_in() { # the first call to a sidecar that the call's connection starts, in home $1
  local home=$1
  BATON_HOME=$home perl -e "$activator" "$home/port" "$PWD/bin/baton" serve >"$home/serve.log" 2>&1 &
  until [[ -s $home/port ]]; do sleep 0.01; done
  printf '127.0.0.1:%s\n' "$(<"$home/port")" >"$home/service-socket"
  hook "$home" /bin/false
}
demand=() socket=() running=()
for ((i = 0; i < runs; i++)); do
  demand+=("$(on_demand)")
  home=$(mktemp -d)
  socket+=("$(activated_in "$home")")
  running+=("$(hook "$home" /bin/false)")
  stop "$home"
done
source bench/stats.sh
echo "on demand (the hook starts bin/baton serve):  median $(median "${demand[@]}") ms ($(range "${demand[@]}") ms)"
echo "socket activation (the connection starts it): median $(median "${socket[@]}") ms ($(range "${socket[@]}") ms)"
echo "already running (the next call):              median $(median "${running[@]}") ms ($(range "${running[@]}") ms)"
