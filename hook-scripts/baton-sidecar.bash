# baton-sidecar.bash — sourced by baton-hook and baton-mcp (both beside it): this BATON_HOME's own sidecar, found and
# verified (find_sidecar, sidecar_is_ours), and one HTTP exchange with it bounded by the caller's deadline (exchange,
# bounded). Sourcing it sets $home and the budgets from the environment (see baton-hook for the variables):
# $budget and $start_budget in seconds, $started and $deadline in microseconds of EPOCHREALTIME. Bash 5 builtins
# only: nothing here starts a program. What a caller does when no sidecar answers is in baton-sidecar-start.bash,
# sourced only then, so a call that finds its sidecar does not read it.

home=${BATON_HOME:-${XDG_STATE_HOME:-$HOME/.local/state}/baton}
budget=${BATON_HOOK_TIMEOUT-}
[[ $budget == [0-9] || $budget == [0-9][0-9] || $budget == [0-9][0-9][0-9] ]] || budget=6
started=${EPOCHREALTIME/./}
deadline=$((started + budget * 1000000))
start_budget=${BATON_HOOK_START_TIMEOUT-}
[[ $start_budget == [0-9] || $start_budget == [0-9][0-9] || $start_budget == [0-9][0-9][0-9] ]] ||
  start_budget=20
((start_budget < budget)) && start_budget=$budget

# Sets $wait to the seconds left before the deadline (at least 1 ms), in the form read -t takes.
time_left() {
  local us=$((deadline - ${EPOCHREALTIME/./}))
  ((us < 1000)) && us=1000
  printf -v wait '%d.%06d' $((us / 1000000)) $((us % 1000000))
}

# Runs the function "$@" in a child process (a fork of the calling script, no new program) and waits for what it
# prints, up to the deadline, on a descriptor bash picks above 9 (clear of the fixed ones the scripts use).
# The child prints "+" once the part that fails at once has passed (connecting), then its result, and exits.
# Sets $output to the result. Returns 0 when it came whole, 1 when the child printed nothing (it could not
# connect), 2 when the deadline passed first (the child is then ended).
bounded() {
  local marker got fd
  output=
  exec {fd}< <("$@")
  bounded_pid=$!
  time_left
  IFS= read -r -N 1 -t "$wait" marker <&"$fd"
  got=$?
  if ((got <= 128)) && [[ $marker == + ]]; then
    time_left
    IFS= read -r -N 134217728 -t "$wait" output <&"$fd"
    got=$?
  fi
  exec {fd}<&-
  if ((got > 128)); then
    kill "$bounded_pid" 2>/dev/null
    return 2
  fi
  [[ $marker == + ]] || return 1
}


# --- Endpoint verification: the token goes only to this BATON_HOME's own sidecar. ---
# True when sidecar.pid names a live process of this user and a socket of this user listens on 127.0.0.1:$1, as
# the kernel lists them in /proc/net/tcp and tcp6 (uid column). After a crash the endpoint file may remain and
# another user may have bound its port; that listener is not ours and the sidecar counts as not running. Bash
# builtins only: reads of /proc files and a pattern match, no process started. Off Linux (no /proc/net/tcp)
# the check cannot be made and passes.
#
# Reading those tables costs milliseconds (the kernel walks its whole connection hash for them), so a check that
# passed is remembered in $home/hook-listener (mode 0600, written by this function alone) as one line: the sidecar's
# pid, its start (clock ticks since boot, from /proc/PID/stat), the port and the boot's id. A later call that finds
# the same line for the process sidecar.pid names now skips the tables: that is the same process, still running,
# which was listening on that port, and a sidecar keeps its listener until it exits. A reused pid (another start),
# a restarted sidecar, another port or a reboot give another line, and the tables are read again.
sidecar_is_ours() {
  local port=$1 pid hex table line stat boot fact -
  [[ -r /proc/net/tcp ]] || return 0
  { IFS= read -r pid || [[ -n $pid ]]; } 2>/dev/null <"$home/sidecar.pid" || return 1
  [[ $pid == [0-9]* && $pid != *[!0-9]* && -O /proc/$pid ]] || return 1
  set -f # the stat line and the tables are split below; no word is a file pattern
  { IFS= read -r stat; } 2>/dev/null <"/proc/$pid/stat" || return 1
  local IFS=' '
  stat=(${stat##*) }) # the fields after the command name, which may hold spaces; [19] is field 22, the start
  { IFS= read -r boot; } 2>/dev/null </proc/sys/kernel/random/boot_id
  fact=
  [[ ${stat[19]} == [0-9]* && ${stat[19]} != *[!0-9]* && -n $boot ]] && fact="$pid ${stat[19]} $port $boot"
  if [[ -n $fact && -f $home/hook-listener && -O $home/hook-listener ]] &&
    { IFS= read -r line; } 2>/dev/null <"$home/hook-listener" && [[ $line == "$fact" ]]; then
    return 0
  fi
  printf -v hex '%04X' "$port"
  # tcp6 first: Java listens on a dual-stack socket (127.0.0.1 as ::ffff:127.0.0.1) where IPv6 is on.
  for table in /proc/net/tcp6 /proc/net/tcp; do
    [[ -r $table ]] || continue
    IFS= read -r -N 4194304 table 2>/dev/null <"$table"
    # Splitting on newlines and a cheap glob first: a regex over the whole table costs milliseconds.
    local IFS=$'\n'
    for line in $table; do
      [[ $line == *"0100007F:$hex 0"* ]] || continue
      # Local 127.0.0.1:PORT, any remote, state 0A (LISTEN), queues, timer, retransmits, then the uid.
      if [[ $line =~ :$hex\ [0-9A-F]+:0000\ 0A\ [0-9A-F:]+\ [0-9A-F:]+\ [0-9A-F]+\ +$EUID\  ]]; then
        # One process, once per sidecar start: umask is set in the subshell alone. A concurrent reader may see
        # the file half-written; its line then differs and it reads the tables itself.
        [[ -z $fact ]] || (umask 077 && printf '%s\n' "$fact" >"$home/hook-listener") 2>/dev/null
        return 0
      fi
    done
  done
  return 1
}
# Sets $port and $token to this BATON_HOME's own sidecar's. Returns 1 when there is none.
find_sidecar() {
  local endpoint
  token= port=
  # read fails at a missing final newline but still fills the variable; only an empty value means no file.
  { IFS= read -r endpoint || [[ -n $endpoint ]]; } 2>/dev/null <"$home/endpoint" || return 1
  [[ $endpoint == 127.0.0.1:[0-9]* && ${endpoint#127.0.0.1:} != *[!0-9]* ]] || return 1
  port=${endpoint#*:}
  sidecar_is_ours "$port" || return 1
  { IFS= read -r token || [[ -n $token ]]; } 2>/dev/null <"$home/token" || return 1
}

# One HTTP exchange with the sidecar on $port: $request_head, then the variable named by $request_body, and the
# answer (at most $1 bytes) in $status, $head (lower-cased), $raw_head and $body. Returns 1 when the connection
# was refused, 2 when the answer did not come whole within the deadline.
exchange() {
  bounded http_exchange "$1" || return
  parse_answer || return 2
}

# The child's part of an exchange: connects, prints "+", sends the request, reads the whole answer (the sidecar
# closes an HTTP/1.0 connection after it) and prints it. Nothing here is bounded: the parent is (see bounded).
# The request names this child as the connection's process and the calling script as its parent: hints for the
# sidecar's lookup of the connection in the kernel, which decides.
http_exchange() {
  local answer
  { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || return 1
  printf '+'
  printf '%s%s' "${request_head/@PID@/$BASHPID}" "${!request_body}" >&3 2>/dev/null
  IFS= read -r -N "$1" answer <&3
  printf '%s' "$answer"
}

# Splits the answer in $output into $status, $head (lower-cased), $raw_head and $body.
# Returns 1 when it was cut off.
parse_answer() {
  local length
  status= head= raw_head= body=
  raw_head=${output%%$'\r\n\r\n'*}
  [[ $raw_head == "$output" ]] && return 1 # no complete header: cut off
  body=${output#*$'\r\n\r\n'}
  output=
  status=${raw_head%%$'\r'*}
  status=${status#HTTP/1.? }
  status=${status%% *}
  head=${raw_head,,}
  if [[ $head =~ $'\n'content-length:\ *([0-9]+) ]]; then
    length=${BASH_REMATCH[1]}
    ((${#body} >= length)) || return 1 # the body was cut off
    body=${body:0:length}
  fi
  [[ $status == [0-9][0-9][0-9] ]]
}
