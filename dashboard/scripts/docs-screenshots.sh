#!/usr/bin/env bash
# Renders the dashboard pictures in docs/ from a real sidecar, without a display (the dashboard renders
# headless when there is none): the Messages page with messages between sessions, and a wait-for graph
# whose arrows cross.
#   dashboard/scripts/docs-screenshots.sh docs
set -euo pipefail
outdir="$(realpath -m "${1:-docs}")"
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

# Each session stands for an agent: a live process the sidecar can check.
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

# Six sessions: the layout seats the first four left, right, top and bottom, the next two upper left and lower
# right, so the three waits below cross in the middle of the graph.
session 3f2a91c4-auth claude-code auth-refactor
session 9c1d77e0-billing copilot-cli billing-fix
session 51be0a3d-docs claude-code docs
session a7e4c2f9-tests codex test-suite
session c0ffee12-cart gemini cart-cleanup
session 77aa5e01-api claude-code api-client
acquire 9c1d77e0-billing src/billing/Invoice.java
acquire a7e4c2f9-tests src/billing/InvoiceTest.java
acquire 77aa5e01-api src/cart/Cart.java

message 3f2a91c4-auth 9c1d77e0-billing "I need src/billing/Invoice.java for the login audit; tell me when you are done"
message 9c1d77e0-billing 3f2a91c4-auth "done in ~10 min, rounding fix first"
message a7e4c2f9-tests '*' "the test suite is red on main; please do not merge until InvoiceTest passes"
message 51be0a3d-docs a7e4c2f9-tests "which tests cover the new rounding? I am documenting it"
message c0ffee12-cart 77aa5e01-api "can I take src/cart/Cart.java after your change lands?"

mkdir -p "$outdir"
"$here/bin/baton" dashboard --screenshot "$outdir/dashboard-messages.png" --size 1440x900 --page messages

acquire 3f2a91c4-auth src/billing/Invoice.java 600 2>/dev/null & pids+=($!)
acquire 51be0a3d-docs src/billing/InvoiceTest.java 600 2>/dev/null & pids+=($!)
acquire c0ffee12-cart src/cart/Cart.java 600 2>/dev/null & pids+=($!)
sleep 1
"$here/bin/baton" dashboard --screenshot "$outdir/dashboard-crossing.png" --size 1440x900 --page overview
