# Sourced by the scripts that render the dashboard's pictures: a fresh BATON_HOME and repository in a temporary
# directory, a real sidecar on a free port, and the calls a scene is built from, all through the HTTP API.
# Everything it starts ends when the sourcing script exits.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d)"
export BATON_HOME="$work/home"
repo="$work/shop"
mkdir -p "$repo/src/auth" "$repo/src/billing" "$repo/src/cart" "$repo/docs"
git -C "$repo" init -q

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

"$here/bin/baton" serve --port 0 >"$work/serve.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do [[ -s "$BATON_HOME/endpoint" ]] && break; sleep 0.1; done
base="http://$(cat "$BATON_HOME/endpoint")"
token="$(cat "$BATON_HOME/token")"
api() { curl -sS -H "Authorization: Bearer $token" -H 'Content-Type: application/json' "$@"; }

# Each session stands for an agent: a live process the sidecar can check. Its key proves who calls.
declare -A keys
session() { # id agent name
  sleep 3600 & pids+=($!)
  local reply
  reply="$(api -X POST "$base/v1/sessions" -d "{\"session_id\":\"$1\",\"agent\":\"$2\",\"pid\":$!,\"cwd\":\"$repo\",\"name\":\"$3\"}")"
  keys[$1]="$(sed -n 's/.*"key":"\([^"]*\)".*/\1/p' <<<"$reply")"
}
acquire() { # session file [wait_seconds]
  api -X POST "$base/v1/locks/acquire" -H "X-Baton-Key: ${keys[$1]}" \
    -d "{\"session_id\":\"$1\",\"files\":[\"$repo/$2\"],\"wait_seconds\":${3:-0}}" >/dev/null
}
message() { # from to text
  api -X POST "$base/v1/messages" -H "X-Baton-Key: ${keys[$1]}" \
    -d "{\"session_id\":\"$1\",\"to\":\"$2\",\"text\":\"$3\"}" >/dev/null
}
plan() { # session goal task
  api -X POST "$base/v1/plans" -H "X-Baton-Key: ${keys[$1]}" \
    -d "{\"session_id\":\"$1\",\"goal\":\"$2\",\"current_task\":\"$3\"}" >/dev/null
}
