# baton-sidecar-start.bash — sourced by baton-hook and baton-mcp (both beside it, after baton-sidecar.bash) once a
# call found no sidecar or got no answer: starts one (start_and_call) and says why none answered (unreachable).

# Starts the sidecar in the background, detached from the agent, unless no baton command can be found. It is
# started from a subshell that exits at once, so its parent is init (or the nearest subreaper), never the calling
# script: an agent that ends its MCP server, or a hook that outlived its timeout, by killing that process's whole
# tree (Copilot CLI does at exit) would otherwise take the sidecar with it.
start_sidecar() {
  local bin=${BATON_BIN-} here=${BASH_SOURCE[0]%/*}
  [[ $here == "${BASH_SOURCE[0]}" ]] && here=.
  if [[ -z $bin ]]; then
    if [[ -x $here/baton ]]; then
      bin=$here/baton
    elif hash baton 2>/dev/null; then
      bin=${BASH_CMDS[baton]}
    fi
  fi
  [[ -n $bin && -x $bin ]] || return 1
  [[ -d $home ]] || mkdir -p -m 700 "$home" 2>/dev/null || return 1
  if hash setsid 2>/dev/null; then
    (BATON_HOME=$home nohup setsid "$bin" serve </dev/null >>"$home/sidecar.log" 2>&1 &)
  else
    (BATON_HOME=$home nohup "$bin" serve </dev/null >>"$home/sidecar.log" 2>&1 &)
  fi
  return 0
}

# Under socket activation: connects to the service manager's socket, which starts the sidecar (the connection
# waits in the socket's queue meanwhile), and asks for /v1/health, the one route that needs no token. Fails when
# Baton is not installed as a socket-activated service or nothing listens on its socket.
activate_service() {
  local address
  { IFS= read -r address || [[ -n $address ]]; } 2>/dev/null <"$home/service-socket" || return 1
  [[ $address =~ ^127\.0\.0\.1:[0-9]+$ ]] || return 1
  bounded health_request "${address#*:}"
  (($? != 1))
}

# The child's part of activate_service: connects and sends the health request, without waiting for the answer.
health_request() {
  { exec 3<>"/dev/tcp/127.0.0.1/$1"; } 2>/dev/null || return 1
  printf '+'
  printf 'GET /v1/health HTTP/1.0\r\n\r\n' >&3 2>/dev/null
}

# Sets $escaped to $1 as the inside of a JSON string (the messages of Baton's scripts hold no other control characters).
json_escape() {
  escaped=${1//\\/\\\\}
  escaped=${escaped//\"/\\\"}
  escaped=${escaped//$'\n'/\\n}
  escaped=${escaped//$'\r'/}
  escaped=${escaped//$'\t'/ }
}

# After a call (the command "$@") found no sidecar: starts one (through the service manager's socket, else `baton
# serve`) and calls again until one answers or the start budget, counted from $started, is spent. Sets $result
# and $starting.
start_and_call() {
  # Starting a JVM takes longer than answering: from here on the start budget bounds the wait.
  deadline=$((started + start_budget * 1000000))
  budget=$start_budget
  if activate_service; then
    starting=service
  elif start_sidecar; then
    starting=yes
  else
    starting=no
  fi
  result=1
  while ((result == 1)) && [[ $starting != no ]] && ((${EPOCHREALTIME/./} < deadline - 100000)); do
    sleep 0.1
    "$@"
    result=$?
  done
}

# Sets $why to why no sidecar answered, after start_and_call (result 1) or an answer that did not come (result 2).
unreachable() {
  if ((result == 2)); then
    why="its sidecar did not answer within ${budget} s (see $home/sidecar.log)"
  elif [[ $starting == service ]]; then
    why="its service did not start the sidecar within ${budget} s (see \`baton service status\` and $home/sidecar.log)"
  elif [[ $starting == yes ]]; then
    why="its sidecar did not start within ${budget} s (see $home/sidecar.log)"
  else
    why="its sidecar is not running and no baton command was found to start it (set BATON_BIN, or put baton on PATH)"
  fi
}
