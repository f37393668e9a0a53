# Bounded load generator on 127.0.0.1 only: N trickling connections, then M concurrent large bodies; prints figures.
import os, socket, sys, threading, time, json, urllib.request
home = sys.argv[1]; trickle_n = int(sys.argv[2]); big_n = int(sys.argv[3]); big_mib = int(sys.argv[4])
port = int(open(home + "/endpoint").read().strip().split(":")[1]); token = open(home + "/token").read().strip()
pid = int(open(home + "/sidecar.pid").read().strip())
def rss():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"): return int(line.split()[1]) // 1024
    return -1
def health():
    t = time.time()
    req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/sessions", headers={"Authorization": "Bearer " + token})
    urllib.request.urlopen(req, timeout=30).read()
    return time.time() - t
print(f"rss at start: {rss()} MiB")
socks = []
for i in range(trickle_n):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(f"POST /v1/locks/acquire HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\nContent-Length: 100000\r\n\r\n{{".encode())
    socks.append(s)
stop = time.time() + 15
cut = 0
def feed():
    global cut
    while time.time() < stop:
        for s in socks:
            try: s.sendall(b" ")
            except OSError: pass
        time.sleep(0.1)
t = threading.Thread(target=feed); t.start()
time.sleep(3)
print(f"{trickle_n} trickling connections held; a request meanwhile took {health():.3f} s; rss {rss()} MiB")
t.join()
alive = 0
for s in socks:
    try:
        s.settimeout(0.01); s.sendall(b" "); alive += 1
    except OSError: pass
    s.close()
body = b"{" + b" " * (big_mib * 1024 * 1024 - 2) + b"}"
codes = []; peak = [0]
def big():
    try:
        req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/locks/release", data=body, method="POST",
            headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
        codes.append(urllib.request.urlopen(req, timeout=120).status)
    except urllib.error.HTTPError as e: codes.append(e.code)
    except Exception as e: codes.append(str(type(e).__name__))
def watch():
    while len(codes) < big_n:
        peak[0] = max(peak[0], rss()); time.sleep(0.05)
threads = [threading.Thread(target=big) for _ in range(big_n)]
w = threading.Thread(target=watch); w.start()
[x.start() for x in threads]; [x.join() for x in threads]; w.join()
from collections import Counter
print(f"{big_n} concurrent {big_mib} MiB bodies: statuses {dict(Counter(codes))}; peak rss {peak[0]} MiB; afterwards a request took {health():.3f} s")
s = socket.create_connection(("127.0.0.1", port)); s.sendall(f"POST /v1/locks/acquire HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\nExpect: 100-continue\r\nContent-Length: 9999999999\r\n\r\n".encode())
t0 = time.time(); print("declared 9999999999 bytes with Expect: 100-continue ->", s.recv(200).split(b"\r\n")[0].decode(), f"in {time.time()-t0:.3f} s")
