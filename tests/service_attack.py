#!/usr/bin/env python3
"""The exhaustion attacks of issue 35, point 2, as one hostile account.

tests/service_host.sh runs it as throw-away accounts against its service.
Every mode ends when the file STOP exists (or after 300 s), and reports on
stdout; READY is created once the attack is in place.

  ids SOCKET READY STOP
      16 connections that never read: 8 send requests with 1 MB ids, 8
      send small status requests whose answers pile up.  READY once more
      than 96 MiB went out, with the MiB sent written in it.
  uploads SOCKET READY STOP N KIB
      N connections that each upload KIB KiB, then sit idle.  READY once
      the service read all of it or refused it: "kept K refused R codes".
  hold SOCKET READY STOP N
      N connections, each asking one status and keeping the connection:
      READY with "kept K" and the codes of those refused.
"""
import base64
import fcntl
import json
import os
import select
import socket
import struct
import sys
import termios
import threading
import time

DEADLINE = time.monotonic() + 300


def stopped(stop):
    return os.path.exists(stop) or time.monotonic() > DEADLINE


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s


def line(obj):
    return json.dumps(obj).encode() + b"\n"


def ready(path, text):
    with open(path + ".tmp", "w") as f:
        f.write(text + "\n")
    os.rename(path + ".tmp", path)


def attack_ids(sock_path, ready_path, stop):
    sent = [0]
    lock = threading.Lock()
    big = line({"jsonrpc": "2.0", "method": "status", "id": "i" * 1000000,
                "params": {"action_id": "x"}})
    small = b"".join(line({"jsonrpc": "2.0", "method": "status", "id": n,
                           "params": {"action_id": "no-such-action"}})
                     for n in range(1000))

    def one(message):
        while not stopped(stop):
            try:
                s = connect(sock_path)
                s.settimeout(0.5)
                at = 0
                while not stopped(stop):
                    try:
                        n = s.send(message[at:])
                    except socket.timeout:
                        continue
                    at = (at + n) % len(message)
                    with lock:
                        sent[0] += n
            except OSError:
                pass  # dropped by the service: again

    threads = [threading.Thread(target=one, args=(big if i < 8 else small,),
                                daemon=True) for i in range(16)]
    for t in threads:
        t.start()
    while sent[0] < (96 << 20) and not stopped(stop):
        time.sleep(0.05)
    ready(ready_path, str(sent[0] >> 20))
    while not stopped(stop):
        time.sleep(0.05)
    print("sent %d MiB" % (sent[0] >> 20))


def unsent(s):
    buf = fcntl.ioctl(s.fileno(), termios.TIOCOUTQ, struct.pack("i", 0))
    return struct.unpack("i", buf)[0]


def answer(s):
    """(error code or "answered", id) of the service's first answer on s,
    or None at its end."""
    data = b""
    while b"\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    if b"\n" not in data:
        return None
    msg = json.loads(data.split(b"\n")[0])
    return (msg.get("error", {}).get("data", {}).get("code", "answered"),
            msg.get("id"))


def answer_code(s):
    got = answer(s)
    return got[0] if got is not None else None


def barrier(sock_path):
    """One request answered (or refused) on a connection of its own."""
    s = connect(sock_path)
    try:
        s.sendall(line({"jsonrpc": "2.0", "method": "status", "id": 0,
                        "params": {"action_id": "no-such-action"}}))
        answer(s)
    except OSError:
        pass
    s.close()


def attack_uploads(sock_path, ready_path, stop, n, kib):
    chunk = base64.b64encode(b"u" * 49152).decode()
    message = line({"jsonrpc": "2.0", "method": "upload",
                    "params": {"data": chunk}})
    count = kib * 1024 // 49152
    conns = []
    for _ in range(n):
        try:
            s = connect(sock_path)
        except OSError:
            continue
        s.setblocking(False)
        conns.append([s, message * count, None])
    # Send what the service takes; a refused connection answers and ends.
    while not stopped(stop):
        settled = 0
        for c in conns:
            s, rest, code = c
            if code is not None:
                settled += 1
                continue
            r, _, _ = select.select([s], [], [], 0)
            if r:
                s.setblocking(True)
                c[2] = answer_code(s) or "closed"
                continue
            if rest:
                try:
                    c[1] = rest[s.send(rest):]
                except BlockingIOError:
                    pass
                except OSError:
                    c[2] = "closed"
            elif unsent(s) == 0:
                settled += 1
        if settled == len(conns):
            break
        time.sleep(0.01)
    # A connection the service read whole may have its refusal still to
    # come: the loop writes it a pass later.  One round trip on another
    # connection takes longer than that; then every refusal is here.
    barrier(sock_path)
    for c in conns:
        if c[2] is None and select.select([c[0]], [], [], 0)[0]:
            c[0].setblocking(True)
            c[2] = answer_code(c[0]) or "closed"
    codes = [c[2] for c in conns if c[2] is not None]
    ready(ready_path, "kept %d refused %d %s" % (len(conns) - len(codes),
                                                  len(codes),
                                                  " ".join(sorted(codes))))
    # Idle until the service closes them (its idle timeout) or STOP.
    while not stopped(stop):
        open_ones = [c for c in conns if c[2] is None]
        if not open_ones:
            break
        r, _, _ = select.select([c[0] for c in open_ones], [], [], 0.05)
        for c in open_ones:
            if c[0] in r:
                try:
                    c[0].setblocking(True)
                    c[2] = answer_code(c[0]) or "closed"
                except OSError:
                    c[2] = "closed"
    print("closed by the service: %d of %d" % (
        sum(1 for c in conns if c[2] == "closed"), len(conns)))


def attack_hold(sock_path, ready_path, stop, n):
    """A connection refused at accept is answered with id null and ended;
    one kept answers the status with its id and stays."""
    kept, codes, conns = 0, [], []
    for i in range(n):
        try:
            s = connect(sock_path)
        except OSError:
            codes.append("reset")
            continue
        try:
            s.sendall(line({"jsonrpc": "2.0", "method": "status", "id": i,
                            "params": {"action_id": "no-such-action"}}))
        except OSError:
            pass  # refused and closed at once: the answer is there still
        try:
            got = answer(s)
        except OSError:
            codes.append("reset")
            continue
        if got is None or got[1] is None:
            codes.append(got[0] if got is not None else "closed")
        else:
            kept += 1
            conns.append(s)
    ready(ready_path, "kept %d %s" % (kept, " ".join(sorted(set(codes)))))
    while not stopped(stop):
        time.sleep(0.05)


def main():
    mode, sock_path, ready_path, stop = sys.argv[1:5]
    if mode == "ids":
        attack_ids(sock_path, ready_path, stop)
    elif mode == "uploads":
        attack_uploads(sock_path, ready_path, stop, int(sys.argv[5]),
                       int(sys.argv[6]))
    else:
        attack_hold(sock_path, ready_path, stop, int(sys.argv[5]))


main()
