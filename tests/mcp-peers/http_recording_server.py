#!/usr/bin/env python3
"""A small MCP server over the Streamable HTTP transport that records every
request it receives (method, headers, body) as one JSON line in the file
RECORD, so that a test can show what reached it: the headers the proxy
sends, the session id, and that a blocked call never arrived.

    PORT=N RECORD=path [TLS_CERT=pem TLS_KEY=pem] python3 http_recording_server.py

With TLS_CERT and TLS_KEY it speaks HTTPS. Prints "listening on
http[s]://127.0.0.1:PORT" when ready. Tools:
  echo {text}      answered as one JSON body
  slow {text}      answered on an event stream: a progress notification,
                   then the result
  flaky {text}     an event stream that breaks after its first event (id
                   "flaky-1") without the result; a GET with Last-Event-ID
                   flaky-1 gets the result
  leak {}          returns a text with an AWS-style secret key in it
GET without Last-Event-ID: 405 (no stream of its own). DELETE ends the
session; a request in an ended or unknown session gets 404.
"""
import json
import os
import ssl
import sys
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

RECORD = os.environ["RECORD"]
LOCK = threading.Lock()
SESSIONS = set()
PENDING_RESUME = {}  # event id -> the response to send on resumption

TOOLS = [
    {"name": name, "description": desc,
     "inputSchema": {"type": "object", "properties": props}}
    for name, desc, props in [
        ("echo", "Echoes the text.", {"text": {"type": "string"}}),
        ("slow", "Echoes the text after a progress note.", {"text": {"type": "string"}}),
        ("flaky", "Echoes the text on a stream that breaks once.", {"text": {"type": "string"}}),
        ("leak", "Returns a configuration.", {}),
    ]
]


def record(entry):
    with LOCK, open(RECORD, "a") as out:
        out.write(json.dumps(entry) + "\n")


def result(request_id, text):
    return {"jsonrpc": "2.0", "id": request_id,
            "result": {"content": [{"type": "text", "text": text}]}}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self, body=None):
        record({"method": self.command, "path": self.path,
                "headers": {k.lower(): v for k, v in self.headers.items()},
                "body": body})

    def send_json(self, status, payload, session=None):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if session:
            self.send_header("Mcp-Session-Id", session)
        self.end_headers()
        self.wfile.write(data)

    def send_empty(self, status):
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def start_events(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def event(self, message, event_id=None):
        text = ""
        if event_id:
            text += "id: " + event_id + "\n"
        text += "event: message\ndata: " + json.dumps(message) + "\n\n"
        self.wfile.write(text.encode())
        self.wfile.flush()

    def session_ok(self):
        session = self.headers.get("Mcp-Session-Id")
        with LOCK:
            known = session in SESSIONS
        if not known:
            self.send_json(404, {"jsonrpc": "2.0", "id": None,
                                 "error": {"code": -32001, "message": "Session not found"}})
        return known

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length) or b"null")
        self.record(body)
        if not isinstance(body, dict):
            self.send_json(400, {"jsonrpc": "2.0", "id": None,
                                 "error": {"code": -32600, "message": "one message per POST"}})
            return
        method = body.get("method")
        if method == "initialize":
            session = uuid.uuid4().hex
            with LOCK:
                SESSIONS.add(session)
            self.send_json(200, {"jsonrpc": "2.0", "id": body["id"], "result": {
                "protocolVersion": body["params"].get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "recording", "version": "1.0.0"}}}, session)
            return
        if not self.session_ok():
            return
        if "id" not in body or method is None:  # a notification or a response
            self.send_empty(202)
            return
        request_id = body["id"]
        if method == "tools/list":
            self.send_json(200, {"jsonrpc": "2.0", "id": request_id, "result": {"tools": TOOLS}})
            return
        if method != "tools/call":
            self.send_json(200, {"jsonrpc": "2.0", "id": request_id,
                                 "error": {"code": -32601, "message": "no such method"}})
            return
        name = body["params"]["name"]
        text = body["params"].get("arguments", {}).get("text", "")
        if name == "echo":
            self.send_json(200, result(request_id, "echo: " + text))
        elif name == "leak":
            self.send_json(200, result(request_id, "aws_secret_access_key = "
                                       "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"))
        elif name == "slow":
            self.start_events()
            self.event({"jsonrpc": "2.0", "method": "notifications/message",
                        "params": {"level": "info", "data": "working on " + text}})
            self.event(result(request_id, "slow: " + text))
        elif name == "flaky":
            self.start_events()
            with LOCK:
                PENDING_RESUME["flaky-1"] = result(request_id, "flaky: " + text)
            self.event({"jsonrpc": "2.0", "method": "notifications/message",
                        "params": {"level": "info", "data": "started " + text}}, "flaky-1")
            # The connection breaks here, before the result.
        else:
            self.send_json(200, {"jsonrpc": "2.0", "id": request_id,
                                 "error": {"code": -32602, "message": "no such tool"}})

    def do_GET(self):
        self.record()
        if not self.session_ok():
            return
        last = self.headers.get("Last-Event-ID")
        with LOCK:
            pending = PENDING_RESUME.pop(last, None) if last else None
        if pending is None:
            self.send_empty(405)
            return
        self.start_events()
        self.event(pending, last + "-resumed")

    def do_DELETE(self):
        self.record()
        session = self.headers.get("Mcp-Session-Id")
        with LOCK:
            SESSIONS.discard(session)
        self.send_empty(200)


class TlsServer(ThreadingHTTPServer):
    """The handshake in the connection's own thread: a client that connects
    and says nothing holds up no other."""

    def __init__(self, address, handler, context):
        super().__init__(address, handler)
        self.context = context

    def finish_request(self, request, client_address):
        request = self.context.wrap_socket(request, server_side=True)
        super().finish_request(request, client_address)


def main():
    address = ("127.0.0.1", int(os.environ.get("PORT", "0")))
    if os.environ.get("TLS_CERT"):
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(os.environ["TLS_CERT"], os.environ["TLS_KEY"])
        server = TlsServer(address, Handler, context)
        scheme = "https"
    else:
        server = ThreadingHTTPServer(address, Handler)
        scheme = "http"
    server.daemon_threads = True
    print("listening on %s://127.0.0.1:%d" % (scheme, server.server_address[1]), flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
