"""The clients bench/programs.sh loads a service with (issue 31).

    programs_load.py waits SOCKET W         W waits over 4 connections
    programs_load.py feeds SOCKET F HEAD TARGET
                                            F events feeds after HEAD
    programs_load.py wake SOCKET ACTION     one wait, and how late it woke

Each prints "ready" once the service holds what it asked for (the answer
to a request sent behind it, or each feed's first answer).  waits then
holds them until killed.  feeds reads every notification and, once the
file TARGET names a seq that each feed has reached, prints "done MIN MAX"
(the fewest and most notifications a feed got) and ends.  wake prints,
once woken, the state and the milliseconds from the decision's
decided_at (the deciding writer's clock, taken before its commit) to the
answer: an upper bound of commit-to-wake.  Standard library only; runs
as another account too (the script comes on stdin).
"""

import datetime
import json
import selectors
import socket
import sys
import time


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s


def send(s, request_id, method, params):
    s.sendall(json.dumps({"jsonrpc": "2.0", "id": request_id,
                          "method": method, "params": params}).encode() +
              b"\n")


def ready():
    print("ready", flush=True)


def waits(path, count):
    conns = [connect(path) for _ in range(4)]
    for c, s in enumerate(conns):
        for k in range(c, count, 4):
            send(s, k, "wait", {"action_id": "w-%d" % k,
                                "timeout_ms": 3600000})
        send(s, -1, "status", {"action_id": "w-0"})
    for s in conns:
        f = s.makefile("rb")
        while json.loads(f.readline()).get("id") != -1:
            pass
    ready()
    while True:
        time.sleep(3600)


def feeds(path, count, head, target_file):
    sel = selectors.DefaultSelector()
    state = {}
    for _ in range(count):
        s = connect(path)
        send(s, 1, "events", {"after_seq": head})
        s.setblocking(False)
        state[s] = {"buf": b"", "last": head, "got": 0, "answered": False}
        sel.register(s, selectors.EVENT_READ)
    told_ready, target = False, None
    while True:
        for key, _ in sel.select(timeout=0.2):
            st = state[key.fileobj]
            data = key.fileobj.recv(1 << 16)
            if not data:
                print("FAIL: a feed was closed", flush=True)
                return 1
            st["buf"] += data
            *lines, st["buf"] = st["buf"].split(b"\n")
            for line in lines:
                m = json.loads(line)
                if "result" in m:
                    st["answered"] = True
                elif m.get("method") == "event":
                    if m["params"]["seq"] != st["last"] + 1:
                        print("FAIL: a feed skipped", flush=True)
                        return 1
                    st["last"] += 1
                    st["got"] += 1
                elif m.get("method") == "events_dropped":
                    print("FAIL: a feed was dropped", flush=True)
                    return 1
        if not told_ready and all(st["answered"] for st in state.values()):
            told_ready = True
            ready()
        if target is None:
            try:
                with open(target_file) as f:
                    target = int(f.read())
            except (OSError, ValueError):
                pass
        if target is not None and all(st["last"] >= target
                                      for st in state.values()):
            got = [st["got"] for st in state.values()]
            print("done %d %d" % (min(got), max(got)), flush=True)
            return 0


def wake(path, action_id):
    s = connect(path)
    f = s.makefile("rb")
    send(s, 1, "wait", {"action_id": action_id, "timeout_ms": 3600000})
    send(s, 2, "status", {"action_id": action_id})
    first = json.loads(f.readline())
    if first.get("id") != 2:
        print("FAIL: the status behind the wait: %r" % first, flush=True)
        return 1
    ready()
    answer = json.loads(f.readline())
    woke = datetime.datetime.now(datetime.timezone.utc)
    status = answer["result"]
    decided = datetime.datetime.strptime(
        status["decision"]["decided_at"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(
        tzinfo=datetime.timezone.utc)
    print("%s %.1f" % (status["state"],
                       (woke - decided).total_seconds() * 1000), flush=True)
    return 0


def main():
    what, path = sys.argv[1], sys.argv[2]
    if what == "waits":
        return waits(path, int(sys.argv[3]))
    if what == "feeds":
        return feeds(path, int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
    return wake(path, sys.argv[3])


sys.exit(main())
