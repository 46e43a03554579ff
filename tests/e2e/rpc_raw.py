#!/usr/bin/env python3
"""Sends a file's bytes raw to a countersign service and reports the answer.

Usage: rpc_raw.py SOCKET FILE.  Writes every byte of FILE (all of it, as
a client that does not read first would) and ends its side, then reads
until the service closes (at most 30 s).  Prints "sent" or "send failed: ERROR", then each
line the service answered, re-encoded as ASCII JSON, or "not JSON: ..."
for a line that is not UTF-8 JSON.  issue 35, point 7.
"""
import json
import socket
import sys


def main():
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(30)
    sock.connect(sys.argv[1])
    with open(sys.argv[2], "rb") as f:
        data = f.read()
    try:
        sock.sendall(data)
        print("sent")
        sock.shutdown(socket.SHUT_WR)
    except OSError as e:
        print("send failed: %s" % e.__class__.__name__)
    answer = b""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
    except OSError as e:
        print("receive failed: %s" % e.__class__.__name__)
    for line in answer.split(b"\n"):
        if not line:
            continue
        try:
            print(json.dumps(json.loads(line.decode("utf-8", "strict"))))
        except ValueError as e:
            print("not JSON: %s" % e)


main()
