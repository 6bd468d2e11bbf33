#!/usr/bin/env python3
"""A small MCP server over stdio with one tool, fetch(url): it GETs the URL
with urllib, which follows the proxy variables, and returns the body (or the
failure, as a tool error). The tests run it behind `toolguard mcp --sandbox`
to see that a confined server reaches the hosts the policy grants and no
other."""
import json
import sys
import urllib.request


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return {"content": [{"type": "text", "text": response.read().decode()}]}
    except Exception as error:  # the failure is the tool's answer
        return {"content": [{"type": "text", "text": "fetch failed: %s" % error}],
                "isError": True}


for line in sys.stdin:
    message = json.loads(line)
    method, ident = message.get("method"), message.get("id")
    if method == "initialize":
        version = message.get("params", {}).get("protocolVersion", "2025-06-18")
        send({"jsonrpc": "2.0", "id": ident, "result": {
            "protocolVersion": version, "capabilities": {"tools": {}},
            "serverInfo": {"name": "fetch", "version": "1.0.0"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": ident, "result": {"tools": [{
            "name": "fetch", "description": "GET a URL and return its body",
            "inputSchema": {"type": "object", "properties": {"url": {"type": "string"}},
                            "required": ["url"]}}]}})
    elif method == "tools/call":
        arguments = message.get("params", {}).get("arguments", {})
        send({"jsonrpc": "2.0", "id": ident, "result": fetch(arguments.get("url", ""))})
    elif ident is not None:
        send({"jsonrpc": "2.0", "id": ident,
              "error": {"code": -32601, "message": "no such method: %s" % method}})
