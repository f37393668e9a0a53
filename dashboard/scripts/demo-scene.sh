#!/usr/bin/env bash
# Builds a realistic scene on a fresh sidecar (several sessions, locks, a wait, a negotiation, a
# two-session deadlock, a plan) through the real HTTP API, then renders the dashboard into PNGs: the overview at
# 1440x900 and, when a second file is named, the Sessions page at 1280x800, the smallest size the tables fit:
#   dashboard/scripts/demo-scene.sh docs/dashboard.png docs/dashboard-sessions.png   (no display needed: it renders headless)
set -euo pipefail
out="$(realpath -m "${1:-docs/dashboard.png}")"
sessions_out="${2:+$(realpath -m "$2")}"
# shellcheck source=scene-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/scene-lib.sh"

session 3f2a91c4-auth claude-code auth-refactor
session 9c1d77e0-billing copilot-cli billing-fix
session 51be0a3d-docs claude-code docs
session a7e4c2f9-tests codex test-suite
acquire 3f2a91c4-auth src/auth/Login.java
acquire 3f2a91c4-auth src/auth/Session.java
acquire 9c1d77e0-billing src/billing/Invoice.java
acquire 51be0a3d-docs docs/architecture.md
acquire a7e4c2f9-tests src/billing/InvoiceTest.java
plan 3f2a91c4-auth "move the login audit onto the new invoice rounding" "split the session filter in two"
# A negotiation: the requester proves who it is with the key it got at registration.
api -X POST "$base/v1/negotiations" -H "X-Baton-Key: ${keys[a7e4c2f9-tests]}" -d "{\"session_id\":\"a7e4c2f9-tests\",\"file\":\"$repo/src/billing/Invoice.java\",\"reason\":\"the test needs the new rounding\",\"urgency\":\"urgent\"}" >/dev/null || true
# The deadlock: each of two sessions waits for the file the other holds.
acquire 3f2a91c4-auth src/billing/Invoice.java 600 2>/dev/null & pids+=($!)
acquire 9c1d77e0-billing src/auth/Session.java 600 2>/dev/null & pids+=($!)
# docs waits for auth behind the deadlock.
acquire 51be0a3d-docs src/auth/Login.java 600 2>/dev/null & pids+=($!)

mkdir -p "$(dirname "$out")"
"$here/bin/baton" dashboard --screenshot "$out" --size 1440x900
if [[ -n "$sessions_out" ]]; then
  "$here/bin/baton" dashboard --screenshot "$sessions_out" --size 1280x800 --page sessions
fi
