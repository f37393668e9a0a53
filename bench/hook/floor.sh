#!/bin/bash
# The floor of the hook benchmark: the least a hook script must do, with nothing of Baton's checks: read the
# payload from stdin, open a socket to 127.0.0.1 with bash's /dev/tcp, send one small HTTP/1.0 request, read
# the answer to the end, exit. Run against FloorServer.java (answers at once: the script's own cost plus the
# loopback round trip) and against the real sidecar's GET /v1/health (adds the sidecar's HTTP stack).
#   floor.sh PORT [GET PATH]   (payload on stdin; default: POST /v1/hooks with the payload as its body)
LC_ALL=C
port=$1 method=${2:-POST} path=${3:-/v1/hooks}
IFS= read -r -N 16384 -t 5 payload
exec 3<>"/dev/tcp/127.0.0.1/$port"
if [[ $method == POST ]]; then
  printf 'POST %s HTTP/1.0\r\nContent-Length: %d\r\n\r\n%s' "$path" "${#payload}" "$payload" >&3
else
  printf 'GET %s HTTP/1.0\r\n\r\n' "$path" >&3
fi
IFS= read -r -N 1048576 -t 5 response <&3
exec 3<&-
[[ $response == 'HTTP/1.'?' 200 '* ]]
