#!/usr/bin/env bash
# The tuned baseline of the hook benchmark: baseline-hook.sh's re-entrant lock check with as few tool runs
# as jq and sqlite3 allow: one jq call extracts both fields, one sqlite3 call takes or refreshes the lock in
# one transaction and reports the holder, and jq builds the deny JSON only when the edit is denied.
#   baseline-hook-tuned.sh DB   (payload on stdin; DB as for baseline-hook.sh)
db=$1
input=$(cat)
IFS=$'\t' read -r session file < <(jq -r '[.session_id, .tool_input.file_path] | @tsv' <<<"$input")
now=$(date +%s%3N)
holder=$(sqlite3 "$db" <<SQL
.timeout 5000
BEGIN IMMEDIATE;
INSERT INTO locks (file, session_id, acquired_ms, heartbeat_ms)
  VALUES ('${file//\'/\'\'}', '${session//\'/\'\'}', $now, $now)
  ON CONFLICT (file) DO UPDATE SET heartbeat_ms = excluded.heartbeat_ms
  WHERE locks.session_id = excluded.session_id;
SELECT session_id FROM locks WHERE file = '${file//\'/\'\'}';
COMMIT;
SQL
)
if [[ $holder != "$session" ]]; then
  jq -cn --arg reason "$file is held by session $holder" \
    '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: $reason}}'
fi
exit 0
