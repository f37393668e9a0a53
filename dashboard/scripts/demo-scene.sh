#!/usr/bin/env bash
# Builds a realistic scene on a fresh sidecar (several sessions, locks, a wait, a negotiation, a
# two-session deadlock) through the real HTTP API, then renders the dashboard into a PNG:
#   xvfb-run -a dashboard/scripts/demo-scene.sh docs/dashboard.png
set -euo pipefail
out="$(realpath -m "${1:-docs/dashboard.png}")"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d)"
export BATON_HOME="$work/home"
repo="$work/shop"
mkdir -p "$repo/src/auth" "$repo/src/billing" "$repo/docs"
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

# Each session stands for an agent: a live process the sidecar can check.
declare -A keys
session() { # id agent name
  sleep 3600 & pids+=($!)
  local reply
  reply="$(api -X POST "$base/v1/sessions" -d "{\"session_id\":\"$1\",\"agent\":\"$2\",\"pid\":$!,\"cwd\":\"$repo\",\"name\":\"$3\"}")"
  keys[$1]="$(sed -n 's/.*"key":"\([^"]*\)".*/\1/p' <<<"$reply")"
}
acquire() { # session file [wait_seconds]
  api -X POST "$base/v1/locks/acquire" -d "{\"session_id\":\"$1\",\"files\":[\"$repo/$2\"],\"wait_seconds\":${3:-0}}" >/dev/null
}

session 3f2a91c4-auth claude-code auth-refactor
session 9c1d77e0-billing copilot-cli billing-fix
session 51be0a3d-docs claude-code docs
session a7e4c2f9-tests codex test-suite
acquire 3f2a91c4-auth src/auth/Login.java
acquire 3f2a91c4-auth src/auth/Session.java
acquire 9c1d77e0-billing src/billing/Invoice.java
acquire 51be0a3d-docs docs/architecture.md
acquire a7e4c2f9-tests src/billing/InvoiceTest.java
# A negotiation: the requester proves who it is with the key it got at registration.
api -X POST "$base/v1/negotiations" -H "X-Baton-Key: ${keys[a7e4c2f9-tests]}" -d "{\"session_id\":\"a7e4c2f9-tests\",\"file\":\"$repo/src/billing/Invoice.java\",\"reason\":\"the test needs the new rounding\",\"urgency\":\"urgent\"}" >/dev/null || true
# The deadlock: each of two sessions waits for the file the other holds.
acquire 3f2a91c4-auth src/billing/Invoice.java 600 2>/dev/null & pids+=($!)
acquire 9c1d77e0-billing src/auth/Session.java 600 2>/dev/null & pids+=($!)
# docs waits for auth behind the deadlock.
acquire 51be0a3d-docs src/auth/Login.java 600 2>/dev/null & pids+=($!)

mkdir -p "$(dirname "$out")"
"$here/bin/baton" dashboard --screenshot "$out" --size 1440x900
