#!/usr/bin/env bash
# Renders the dashboard pictures in docs/ from a real sidecar, without a display (the dashboard renders
# headless when there is none): the Messages page with messages between sessions, and a wait-for graph
# whose arrows cross.
#   dashboard/scripts/docs-screenshots.sh docs
set -euo pipefail
outdir="$(realpath -m "${1:-docs}")"
# shellcheck source=scene-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/scene-lib.sh"

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
