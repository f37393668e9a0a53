#!/bin/bash
# The hook's own request with none of baton-hook's checks: read the payload, the endpoint and the token, send
# `POST /v1/hooks` with the token, pid and ppid over /dev/tcp, read the answer. The distance between this and
# baton-hook is the script's own cost; between this and floor.sh against /v1/health, the hook route's.
#   minimal-hook.sh   (BATON_HOME set, payload on stdin)
LC_ALL=C
IFS= read -r -N 16384 -t 5 payload
IFS= read -r endpoint <"$BATON_HOME/endpoint"
IFS= read -r token <"$BATON_HOME/token"
exec 3<>"/dev/tcp/127.0.0.1/${endpoint#*:}"
printf 'POST /v1/hooks?agent=claude&event=PreToolUse&pid=%s&ppid=%s HTTP/1.0\r\nAuthorization: Bearer %s\r\nContent-Length: %d\r\n\r\n%s' \
  "$$" "$PPID" "$token" "${#payload}" "$payload" >&3
IFS= read -r -N 1048576 -t 5 response <&3
exec 3<&-
[[ $response == 'HTTP/1.'?' 200 '* ]]
