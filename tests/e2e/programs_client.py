"""SPEC 12 through countersign_client against a real service (programs.sh).

Usage: programs_client.py CHECK SOCKET [ARGS...]; prints "ok: ..." and
"FAIL: ..." lines as lib.sh does, and exits 1 when a check failed.
Every wait here is for a condition (an answer, a record), never a sleep.
"""

import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.environ["TOP_SRCDIR"], "python"))
import countersign_client as cc  # noqa: E402

COUNTERSIGN = os.environ["COUNTERSIGN"]
EXAMPLES = os.path.join(os.environ["TOP_SRCDIR"], "tests", "data", "examples")
FAILURES = 0
# A wait's timeout no test reaches: a wait that returns did so because
# it was woken, not by its timeout.
LONG = 3600
# How long a test waits for a wake: far more than the 1 s of SPEC 12
# (bench/programs.sh times that), far less than LONG, so that a wake
# that came from a poll of a long period, or only from the timeout,
# fails here.
WAKE_BOUND = 60


def ok(what):
    print("ok: " + what, flush=True)


def fail(what):
    global FAILURES
    FAILURES += 1
    print("FAIL: " + what, flush=True)


def expect(what, got, want):
    if got == want:
        ok(what)
    else:
        fail("%s: got [%r], want [%r]" % (what, got, want))


def refused(what, code, call, *args):
    try:
        call(*args)
    except cc.Error as e:
        expect(what, e.code, code)
        return e
    fail(what + ": not refused")
    return None


def packet(action_id):
    with open(os.path.join(EXAMPLES, "packet-trade-pass.json")) as f:
        p = json.load(f)
    p["proposed_action"]["action_id"] = action_id
    p["reviewer_verdict"]["action_id"] = action_id
    return json.dumps(p, indent=1) + "\n"


def run(*args, stdin=None):
    return subprocess.run([COUNTERSIGN] + list(args), input=stdin,
                          text=True, capture_output=True)


def decide(connect_or_db, where, action_id, decision="approve"):
    line = {"action_id": action_id, "decision": decision}
    if decision == "reject":
        line["reason"] = "not now"
    p = run(connect_or_db, where, "batch", stdin=json.dumps(line) + "\n")
    if '"recorded"' not in p.stdout:
        fail("decision of %s: %s %s" % (action_id, p.stdout, p.stderr))
        return None
    return json.loads(p.stdout)["decision_id"]


class RawWait:
    """A wait on a connection of its own, known to be registered: the
    service reads a connection's requests in order, so once the status
    sent after it is answered, the wait is held."""

    def __init__(self, sock_path, action_id):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(sock_path)
        self.f = self.sock.makefile("rwb")
        self.send(1, "wait", {"action_id": action_id,
                              "timeout_ms": LONG * 1000})
        self.send(2, "status", {"action_id": action_id})
        answer = self.read()
        if answer.get("id") != 2:
            fail("the status behind a wait: %r" % answer)

    def send(self, request_id, method, params):
        self.f.write(json.dumps({"jsonrpc": "2.0", "id": request_id,
                                 "method": method,
                                 "params": params}).encode() + b"\n")
        self.f.flush()

    def read(self):
        return json.loads(self.f.readline())

    def woken(self, decision_id):
        """The wait's answer, which must come (within WAKE_BOUND) from
        the decision decision_id."""
        self.sock.settimeout(WAKE_BOUND)
        try:
            answer = self.read()
        except socket.timeout:
            answer = {"result": {"state": "not woken in %d s" % WAKE_BOUND}}
        self.sock.close()
        st = answer.get("result", answer)
        expect("... woken by that decision, not by a timeout",
               ((st.get("decision") or {}).get("decision_id"),
                st.get("timed_out")), (decision_id, None))
        return st


def check_submit(sock_path):
    c = cc.Client(sock_path)
    text = packet("sub-0")
    results = c.submit([text])
    expect("submit: imported", results[0]["status"], "imported")
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    expect("submit: packet_sha256 is the string's", results[0]["packet_sha256"],
           digest)
    expect("status: packet_sha256 is the string's",
           c.status("sub-0")["packet_sha256"], digest)
    st = c.status("sub-0")
    expect("status: pending, no decision, quorum 1",
           (st["state"], st["decision"], st["approvals"],
            st["approvals_needed"], st["kind"]),
           ("pending", None, [], 1, "trade"))
    again = c.submit([text])
    expect("submit: the same again is unchanged", again[0]["status"],
           "unchanged")
    bad = json.loads(text)
    del bad["proposed_action"]["side"]
    results = c.submit([packet("sub-1"), json.dumps(bad), packet("sub-2")])
    expect("submit with a bad line: every line refused",
           [r["status"] for r in results], ["refused"] * 3)
    expect("submit with a bad line: the bad one named",
           [r["index"] for r in results if r["error"] is not None], [1])
    expect("submit with a bad line: its field",
           results[1]["error"]["code"] + " " +
           results[1]["error"]["field"], "bad_request proposed_action.side")
    refused("submit with a bad line: nothing imported", "unknown_action",
            c.status, "sub-1")
    refused("submit: lines must be strings", "bad_request",
            lambda: c._call("submit", {"lines": [1]}))
    expect("the connection still answers", c.status("sub-0")["state"],
           "pending")
    c.close()


def check_bad_input(sock_path):
    c = cc.Client(sock_path)
    c.submit([packet("amb-10"), packet("amb-11")])
    for timeout in (-1, 3600001, "x", 1.5):
        refused("wait timeout_ms %r" % (timeout,), "bad_request",
                lambda: c._call("wait", {"action_id": "amb-10",
                                         "timeout_ms": timeout}))
    refused("events after_seq -1", "bad_request",
            lambda: c._call("events", {"after_seq": -1}))
    refused("status of an unknown id", "unknown_action", c.status, "nope")
    e = refused("status of an ambiguous prefix", "ambiguous_id", c.status,
                "amb-1")
    if e is not None:
        expect("ambiguous_id names the matches", sorted(e.data["matches"]),
               ["amb-10", "amb-11"])
    refused("wait on an unknown id", "unknown_action", c.wait, "nope", 1)
    refused("a parameter no method has", "bad_request",
            lambda: c._call("status", {"action_id": "amb-10", "x": 1}))
    refused("receipt of a pending action", "not_decided", c.receipt,
            "amb-10")
    refused("checkpoint without a signing key", "no_signing_key",
            c.checkpoint)
    expect("after all that, the connection still answers",
           c.status("amb-10")["action_id"], "amb-10")
    c.close()


def check_waits(sock_path, db, second_sock):
    c = cc.Client(sock_path)
    c.submit([packet("w-%d" % i) for i in range(6)])
    st = c.wait("w-0", 0.2)
    expect("a wait past its timeout says timed_out",
           (st["state"], st.get("timed_out")), ("pending", True))
    # SPEC 5 (v3): the account that submitted them cannot approve them
    # through the service; this test's officer is that account, so its
    # approvals below are local-mode ones, and through the service it
    # rejects.
    p = run("--connect", sock_path, "batch",
            stdin='{"action_id": "w-5", "decision": "approve"}\n')
    expect("the submitter cannot approve its own submission",
           (p.returncode, json.loads(p.stdout or "{}").get("code")),
           (1, "self_approval"))
    # Woken by a decision through this service.
    w = RawWait(sock_path, "w-0")
    st = w.woken(decide("--connect", sock_path, "w-0", "reject"))
    expect("a wait is woken by a decision through the service",
           (st["state"], st.get("timed_out")), ("rejected", None))
    expect("... with the decision and its record", st["decision"]["seq"]
           > 0 and len(st["decision"]["hash"]) == 64, True)
    # Woken by a local-mode writer of the same store.
    # On SQLite, its file: the loop's look at data_version.
    w = RawWait(sock_path, "w-1")
    expect("a wait is woken by a local-mode batch on the store",
           w.woken(decide("--db", db, "w-1"))["state"], "approved")
    if second_sock:
        # On PostgreSQL (postgresql.sh), the NOTIFY of the other
        # service's transaction.
        w = RawWait(sock_path, "w-2")
        expect("a wait is woken by a decision through a second service",
               w.woken(decide("--connect", second_sock, "w-2",
                              "reject"))["state"], "rejected")
    # Many waits on one connection, each answered under its own id.
    raw = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    raw.connect(sock_path)
    raw.settimeout(WAKE_BOUND)
    f = raw.makefile("rwb")
    for i, aid in ((1, "w-3"), (2, "w-4")):
        f.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": "wait",
                            "params": {"action_id": aid,
                                       "timeout_ms": LONG * 1000}}).encode()
                + b"\n")
    f.write(b'{"jsonrpc":"2.0","id":3,"method":"status",'
            b'"params":{"action_id":"w-5"}}\n')
    f.flush()
    first = json.loads(f.readline())
    expect("a status behind two waits on one connection is answered",
           first["id"], 3)
    decide("--connect", sock_path, "w-4", "reject")
    second = json.loads(f.readline())
    expect("the wait whose action was decided answers, by its id",
           (second["id"], second["result"]["state"]), (2, "rejected"))
    decide("--db", db, "w-3")
    third = json.loads(f.readline())
    expect("and then the other", (third["id"], third["result"]["state"]),
           (1, "approved"))
    raw.close()
    c.close()


def check_events(sock_path):
    c = cc.Client(sock_path)
    head = c._call("events", {"after_seq": 0})["head_seq"]
    c.close()
    seen = []
    c = cc.Client(sock_path)
    c.submit([packet("ev-0")])
    stream = cc.Client(sock_path).events(0)
    for e in stream:
        seen.append(e["seq"])
        if e["seq"] >= head:
            break
    expect("events from 0: every record in order", seen,
           list(range(1, head + 1)))
    decide("--connect", sock_path, "ev-0", "reject")
    live = next(stream)
    expect("then the live one, as it commits",
           (live["seq"], live["event"], live["action_id"], live["decision"]),
           (head + 1, "decision", "ev-0", "reject"))
    c.close()


def check_resume(sock_path, serve_args):
    """A service killed mid-stream and started again: the feed resumes
    from the last record given, with no gap and no duplicate."""
    serve = subprocess.Popen(serve_args, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                cc.Client(sock_path).close()
                break
            except OSError:
                if serve.poll() is not None:
                    fail("the service did not start")
                    return
        with cc.Client(sock_path) as c:
            total = c._call("events", {"after_seq": 0})["head_seq"]
        expect("over 10,000 records", total >= 10000, True)
        seqs = []
        for e in cc.Client(sock_path).events(0):
            seqs.append(e["seq"])
            if len(seqs) == total // 3:
                serve.send_signal(signal.SIGKILL)
                serve.wait()
                serve = subprocess.Popen(serve_args,
                                         stderr=subprocess.DEVNULL)
            if e["seq"] >= total:
                break
        expect("events over %d records, the service killed mid-stream: no "
               "gap, no duplicate" % total, seqs, list(range(1, total + 1)))
    finally:
        serve.send_signal(signal.SIGKILL)
        serve.wait()


def check_slow_reader(sock_path, db, bulk_file):
    """A feed that reads nothing while less than 8 MiB of notifications
    commit is kept: once it reads, every record arrives, none dropped."""
    with cc.Client(sock_path) as c:
        head = c._call("events", {"after_seq": 0})["head_seq"]
    raw = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    raw.connect(sock_path)
    raw.settimeout(60)
    raw.sendall(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "events",
                            "params": {"after_seq": head}}).encode() + b"\n")
    f = raw.makefile("rb")
    expect("a slow reader's live feed", json.loads(f.readline())["id"], 1)
    p = run("--db", db, "import", bulk_file)
    expect("the import while it reads nothing", p.returncode, 0)
    with cc.Client(sock_path) as c:
        last = c._call("events", {"after_seq": 0})["head_seq"]
    seqs, dropped, unread = [], False, 0
    while not dropped and (not seqs or seqs[-1] < last):
        line = f.readline()
        if not line:
            break
        unread += len(line)
        m = json.loads(line)
        if m.get("method") == "event":
            seqs.append(m["params"]["seq"])
        dropped = m.get("method") == "events_dropped"
    raw.close()
    expect("%.1f MiB left unread, then read: not dropped" %
           (unread / 2 ** 20), (dropped, 1 << 20 < unread < 8 << 20),
           (False, True))
    expect("every record, in order", seqs, list(range(head + 1, last + 1)))


def check_dropped(sock_path, db, bulk_file, serve_log):
    """A feed that lets more than 8 MiB wait unread is told where to
    resume and closed; every record up to there arrives whole, the rest
    from a new feed, and other clients never notice."""
    with cc.Client(sock_path) as c:
        head = c._call("events", {"after_seq": 0})["head_seq"]
    raw = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    raw.connect(sock_path)
    raw.sendall(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "events",
                            "params": {"after_seq": head}}).encode() + b"\n")
    f = raw.makefile("rb")
    expect("a live feed from the head", json.loads(f.readline())["id"], 1)
    # Not read from here on, while a writer commits far more than 8 MiB.
    p = run("--db", db, "import", bulk_file)
    expect("the bulk import", p.returncode, 0)
    with cc.Client(sock_path) as other:
        expect("another client is answered meanwhile",
               other.status("sub-0")["action_id"], "sub-0")
    # Until the service says it dropped the feed (a condition, polled).
    for _ in range(1200):
        with open(serve_log) as log:
            if "events dropped after seq" in log.read():
                break
        time.sleep(0.05)
    seqs, dropped = [], None
    for line in f:
        m = json.loads(line)
        if m.get("method") == "event":
            seqs.append(m["params"]["seq"])
        elif m.get("method") == "events_dropped":
            dropped = m["params"]["resume_after_seq"]
    raw.close()
    # At once, however much of it was written: resume_after_seq may be
    # the head it subscribed at.
    expect("events_dropped with resume_after_seq", dropped is not None and
           dropped >= head, True)
    expect("every record up to it, whole and in order", seqs,
           list(range(head + 1, (dropped or head) + 1)))
    resumed = next(cc.Client(sock_path).events(dropped or 0))
    expect("resumed from there", resumed["seq"], (dropped or 0) + 1)


def check_caps(sock_path):
    """A client that opens more waits than a connection holds, never
    reads them, or hangs up mid-stream costs only its own connection."""
    raw = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    raw.connect(sock_path)
    raw.settimeout(WAKE_BOUND)
    f = raw.makefile("rwb")
    for i in range(1025):
        f.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": "wait",
                            "params": {"action_id": "sub-0",
                                       "timeout_ms": LONG * 1000}}).encode()
                + b"\n")
    f.write(b'{"jsonrpc":"2.0","id":"s","method":"status",'
            b'"params":{"action_id":"sub-0"}}\n')
    f.flush()
    refusal = json.loads(f.readline())
    expect("the 1,025th wait on one connection is refused",
           (refusal.get("id"), refusal.get("error", {}).get("data", {})
            .get("code")), (1024, "bad_request"))
    expect("... and the connection still answers",
           json.loads(f.readline()).get("id"), "s")
    # A feed hung up on after one record, mid-stream over 10,000.
    feed = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    feed.connect(sock_path)
    feed.sendall(b'{"jsonrpc":"2.0","id":1,"method":"events",'
                 b'"params":{"after_seq":0}}\n')
    feed.settimeout(WAKE_BOUND)
    fr = feed.makefile("rb")
    fr.readline()
    fr.readline()
    feed.close()
    raw.close()     # 1,024 waits never answered, gone with it
    with cc.Client(sock_path) as c:
        expect("other clients are answered after both hung up",
               c.status("sub-0")["state"], "pending")
        expect("... and a wait on a new connection still times out",
               c.wait("sub-0", 0).get("timed_out"), True)


def check_reader(sock_path):
    c = cc.Client(sock_path)
    expect("a reader reads a status", c.status("sub-0")["action_id"],
           "sub-0")
    expect("a reader waits", c.wait("sub-0", 0)["timed_out"], True)
    expect("a reader follows the log",
           next(cc.Client(sock_path).events(0))["seq"], 1)
    refused("a reader cannot submit", "forbidden", c.submit,
            [packet("r-0")])
    c.close()


def check_importer(sock_path):
    """An importer (an orchestrator that submits) may also use status,
    wait, events, receipt and checkpoint, and still cannot decide."""
    c = cc.Client(sock_path)
    expect("an importer submits", c.submit([packet("imp-0")])[0]["status"],
           "imported")
    expect("... reads its status", c.status("imp-0")["state"], "pending")
    expect("... waits on it", c.wait("imp-0", 0).get("timed_out"), True)
    expect("... follows the log",
           next(cc.Client(sock_path).events(0))["seq"], 1)
    refused("... asks for a receipt (not decided, not forbidden)",
            "not_decided", c.receipt, "imp-0")
    refused("... asks for a checkpoint (no key, not forbidden)",
            "no_signing_key", c.checkpoint)
    p = run("--connect", sock_path, "batch",
            stdin='{"action_id": "imp-0", "decision": "approve"}\n')
    expect("... and cannot decide", (p.returncode, "forbidden" in p.stderr),
           (1, True))
    c.close()


def check_no_role(sock_path):
    c = cc.Client(sock_path)
    for method, params in (("submit", {"lines": []}),
                           ("status", {"action_id": "sub-0"}),
                           ("wait", {"action_id": "sub-0", "timeout_ms": 0}),
                           ("events", {"after_seq": 0}),
                           ("receipt", {"action_id": "sub-0"}),
                           ("checkpoint", {})):
        refused("no role: %s is forbidden" % method, "forbidden",
                lambda: c._call(method, params))
    c.close()


def check_idle(sock_path):
    """A Client whose connection the service closed for idleness connects
    anew at its next call (serve --idle-timeout)."""
    gate = cc.Client(sock_path)
    expect("idle: a first call", gate.status("sub-0")["action_id"], "sub-0")
    closed = False
    for _ in range(1200):           # the service closes it, within 60 s
        if gate._conn.closed_by_service():
            closed = True
            break
        time.sleep(0.05)
    expect("idle: the service closed the idle connection", closed, True)
    expect("idle: the next call connects anew",
           gate.status("sub-0")["action_id"], "sub-0")
    gate.close()


def main():
    check = sys.argv[1]
    if check == "submit":
        check_submit(sys.argv[2])
    elif check == "idle":
        check_idle(sys.argv[2])
    elif check == "bad_input":
        check_bad_input(sys.argv[2])
    elif check == "waits":
        check_waits(sys.argv[2], sys.argv[3],
                    sys.argv[4] if len(sys.argv) > 4 else None)
    elif check == "events":
        check_events(sys.argv[2])
    elif check == "resume":
        check_resume(sys.argv[2], sys.argv[3:])
    elif check == "slow_reader":
        check_slow_reader(sys.argv[2], sys.argv[3], sys.argv[4])
    elif check == "dropped":
        check_dropped(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
    elif check == "caps":
        check_caps(sys.argv[2])
    elif check == "reader":
        check_reader(sys.argv[2])
    elif check == "importer":
        check_importer(sys.argv[2])
    elif check == "no_role":
        check_no_role(sys.argv[2])
    sys.exit(1 if FAILURES else 0)


main()
