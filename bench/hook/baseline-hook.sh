#!/usr/bin/env bash
# The baseline of the hook benchmark: a PreToolUse hook written the way hook examples and the ADR it replaces
# write them, doing Baton's re-entrant lock check with the jq and sqlite3 command-line tools: one jq call per
# field, then a query for the holder and a write (insert for a free file, heartbeat for the holder's own file),
# and a jq-built deny for anyone else.
#   baseline-hook.sh DB   (payload on stdin; DB has: locks(file PRIMARY KEY, session_id, acquired_ms, heartbeat_ms))
db=$1
input=$(cat)
session=$(echo "$input" | jq -r '.session_id')
file=$(echo "$input" | jq -r '.tool_input.file_path // .tool_input.notebook_path')
quoted_file=${file//\'/\'\'}
quoted_session=${session//\'/\'\'}
now=$(date +%s%3N)
holder=$(sqlite3 -cmd '.timeout 5000' "$db" "SELECT session_id FROM locks WHERE file = '$quoted_file'")
if [[ -z $holder ]]; then
  sqlite3 -cmd '.timeout 5000' "$db" \
    "INSERT INTO locks (file, session_id, acquired_ms, heartbeat_ms) VALUES ('$quoted_file', '$quoted_session', $now, $now)"
elif [[ $holder == "$session" ]]; then
  sqlite3 -cmd '.timeout 5000' "$db" "UPDATE locks SET heartbeat_ms = $now WHERE file = '$quoted_file'"
else
  jq -cn --arg reason "$file is held by session $holder" \
    '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: $reason}}'
fi
exit 0
