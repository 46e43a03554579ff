"""A client for programs that talk to a countersign service (SPEC 12).

Standard library only, Python 3.9 or later.  One Client is one connection
to ``countersign serve`` over its Unix socket, speaking the JSON-RPC 2.0
protocol of countersign-protocol(7); one the service closed while idle
(serve --idle-timeout) is made again at the next call::

    import countersign_client

    gate = countersign_client.Client("/run/countersign/socket")
    results = gate.submit([packet_text])      # the input objects, as text
    status = gate.wait(results[0]["action_id"], timeout=600)
    if status["state"] == "approved":
        receipt = gate.receipt(status["action_id"])

A refusal raises countersign_client.Error, whose ``code`` is the gate's
code (forbidden, unknown_action, ambiguous_id, bad_request, not_decided,
no_signing_key, storage).
"""

import json
import socket

__all__ = ["Client", "Error"]

# The service's own limit on one wait (SPEC 12 wait timeout_ms).
_WAIT_MAX_MS = 3600000


class Error(Exception):
    """A refusal from the gate; ``code`` is its code, ``data`` the rest."""

    def __init__(self, code, message, data=None):
        super().__init__("%s (%s)" % (message, code))
        self.code = code
        self.message = message
        self.data = data or {}


class _Connection:
    """One socket and the lines read from it."""

    def __init__(self, path):
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._sock.connect(path)
        except OSError:
            self._sock.close()
            raise
        self._buffer = b""

    def send(self, message):
        data = json.dumps(message, separators=(",", ":")).encode("utf-8")
        self._sock.sendall(data + b"\n")

    def receive(self):
        """The next message; ConnectionError when the service closed."""
        while b"\n" not in self._buffer:
            chunk = self._sock.recv(65536)
            if not chunk:
                raise ConnectionError("the service closed the connection")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return json.loads(line.decode("utf-8"))

    def closed_by_service(self):
        """True when the service has closed this connection (its idle
        timeout, say) with nothing left unread: no request is then in
        flight, so a new connection loses nothing."""
        if self._buffer:
            return False
        try:
            data = self._sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            return True
        return data == b""

    def close(self):
        try:
            self._sock.close()
        except OSError:
            pass


def _refusal(error):
    data = error.get("data") or {}
    code = data.get("code") or data.get("reason") or "storage"
    return Error(code, error.get("message", ""), data)


class Client:
    """A connection to the service at socket_path."""

    def __init__(self, socket_path):
        self.socket_path = socket_path
        self._conn = _Connection(socket_path)
        self._next_id = 0
        self._answers = {}

    def close(self):
        self._conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _call(self, method, params):
        # The service closes a connection idle for long (serve
        # --idle-timeout): a client that waited between calls connects
        # anew rather than failing its next one.
        if not self._answers and self._conn.closed_by_service():
            self._conn.close()
            self._conn = _Connection(self.socket_path)
        self._next_id += 1
        request_id = self._next_id
        self._conn.send({"jsonrpc": "2.0", "id": request_id,
                         "method": method, "params": params})
        while request_id not in self._answers:
            message = self._conn.receive()
            if "id" in message and ("result" in message or
                                    "error" in message):
                self._answers[message["id"]] = message
        message = self._answers.pop(request_id)
        if "error" in message:
            raise _refusal(message["error"])
        return message["result"]

    def submit(self, lines):
        """Imports the input objects (each the JSON text of one), all or
        none; the list of per-line results.  A dict is sent as its JSON
        text, which is then the packet stored."""
        texts = [line if isinstance(line, str) else
                 json.dumps(line, separators=(",", ":")) for line in lines]
        return self._call("submit", {"lines": texts})["results"]

    def status(self, action_id):
        """The status object of the action (an id or a unique prefix)."""
        return self._call("status", {"action_id": action_id})

    def wait(self, action_id, timeout):
        """The status object once the action is no longer pending, or
        after timeout seconds with "timed_out": True.  Longer than the
        service's hour is waited for an hour at a time."""
        left_ms = max(0, int(timeout * 1000))
        while True:
            step = min(left_ms, _WAIT_MAX_MS)
            status = self._call("wait", {"action_id": action_id,
                                         "timeout_ms": step})
            left_ms -= step
            if not status.get("timed_out") or left_ms <= 0:
                return status

    def receipt(self, action_id):
        """The receipt text of the action's decision (the signed log)."""
        return self._call("receipt", {"action_id": action_id})["receipt"]

    def checkpoint(self, size=None):
        """The latest signed checkpoint, or the one of that tree size."""
        params = {} if size is None else {"size": size}
        return self._call("checkpoint", params)["checkpoint"]

    def events(self, after_seq=0, reconnect_attempts=10):
        """The audit records after after_seq, in order, then new ones as
        they commit: an iterator of the notifications' params.  It runs on
        a connection of its own; a connection that drops, or a feed the
        service drops for reading too slowly, is opened again from the
        last record given, so none is lost or repeated."""
        import time

        last = after_seq
        failures = 0
        while True:
            try:
                conn = _Connection(self.socket_path)
            except OSError:
                failures += 1
                if failures > reconnect_attempts:
                    raise
                time.sleep(min(5.0, 0.1 * 2 ** failures))
                continue
            try:
                conn.send({"jsonrpc": "2.0", "id": 1, "method": "events",
                           "params": {"after_seq": last}})
                while True:
                    message = conn.receive()
                    if "error" in message:
                        raise _refusal(message["error"])
                    method = message.get("method")
                    if method == "event":
                        params = message["params"]
                        if params["seq"] <= last:
                            continue    # never twice
                        last = params["seq"]
                        failures = 0
                        yield params
                    elif method == "events_dropped":
                        # Every record up to resume_after_seq came whole.
                        break
            except (ConnectionError, OSError):
                failures += 1
                if failures > reconnect_attempts:
                    raise
            finally:
                conn.close()
