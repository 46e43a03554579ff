#!/usr/bin/env python3
"""The trade pipeline's whole path through the gate (SPEC 12, README).

An agent drafts a trade and a reviewer checks it; this program hands both
to countersign, waits for an officer's decision, fetches the decision's
receipt and carries the trade out only when the receipt verifies with
``countersign verify-receipt``.  Anything less and it refuses to execute,
saying why.  It needs nothing but the standard library and
countersign_client.py (installed beside Python's own modules by
``make install``).

    orchestrator.py --socket /run/countersign/socket --packet drafted.json \\
        [--action-id ID] [--timeout SECONDS] [--key checkpoint.pub]

Exit status: 0 executed, 1 not executed (rejected, expired, timed out or
no verified receipt), 2 usage, 3 the gate refused the submission.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# From a source tree, the module beside it; installed, Python finds it.
sys.path.append(os.path.join(HERE, "..", "python"))
import countersign_client  # noqa: E402

DEFAULT_PACKET = os.path.join(HERE, "..", "tests", "data", "examples",
                              "packet-trade-pass.json")


def draft(path, action_id):
    """Drafting and review happened upstream: the packet holds the
    drafted trade and the reviewer's verdict on it."""
    with open(path, encoding="utf-8") as f:
        packet = json.load(f)
    if action_id:
        packet["proposed_action"]["action_id"] = action_id
        packet["reviewer_verdict"]["action_id"] = action_id
    return json.dumps(packet, separators=(",", ":"))


def verify(receipt, key, countersign):
    """(True, "") when countersign verify-receipt accepts the receipt."""
    if not key:
        return False, "no public key to verify the receipt with (--key)"
    with tempfile.NamedTemporaryFile("w", suffix=".receipt",
                                     delete=False) as f:
        f.write(receipt)
    try:
        p = subprocess.run([countersign, "verify-receipt", f.name, "--key",
                            key], capture_output=True, text=True)
    except OSError as e:
        return False, "cannot run %s: %s" % (countersign, e)
    finally:
        os.unlink(f.name)
    if p.returncode != 0:
        return False, "countersign verify-receipt refused it: " + (
            p.stderr.strip() or "exit %d" % p.returncode)
    return True, ""


def execute(trade):
    """Where a real executor would place the order."""
    print("executed: %s %s x%s" % (trade["side"], trade["ticker"],
                                   trade["quantity"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--socket", required=True)
    ap.add_argument("--packet", default=DEFAULT_PACKET)
    ap.add_argument("--action-id")
    ap.add_argument("--timeout", type=float, default=3600)
    ap.add_argument("--key", help="the log's public key (keygen)")
    ap.add_argument("--countersign", default="countersign")
    args = ap.parse_args()

    text = draft(args.packet, args.action_id)
    gate = countersign_client.Client(args.socket)
    # 1. The drafted trade with its verdict, exactly as reviewed.
    result = gate.submit([text])[0]
    if result["status"] == "refused":
        print("the gate refused the packet: %s" % (result["error"],))
        return 3
    action_id = result["action_id"]
    print("submitted %s (packet_sha256 %s)" % (action_id,
                                                result["packet_sha256"]))
    # 2. An officer decides; nothing here can.
    status = gate.wait(action_id, args.timeout)
    if status.get("timed_out"):
        print("not executed: no decision within %g s" % args.timeout)
        return 1
    decision = status["decision"]
    if status["state"] != "approved":
        print("not executed: %s%s" % (status["state"], " by %s: %s" % (
            decision["operator"], decision["reason"]) if decision else ""))
        return 1
    print("approved by %s at %s (audit seq %d)" % (
        decision["operator"], decision["decided_at"], decision["seq"]))
    # 3. The receipt proves the decision is in the signed log.
    try:
        receipt = gate.receipt(action_id)
    except countersign_client.Error as e:
        print("not executed: the gate gave no receipt (%s): %s" % (
            e.code, e.message))
        return 1
    # 4. Only a receipt that verifies lets the trade go ahead.
    ok, why = verify(receipt, args.key, args.countersign)
    if not ok:
        print("not executed: " + why)
        return 1
    execute(json.loads(text)["proposed_action"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
