#!/usr/bin/env node
// A scripted MCP client on the official TypeScript SDK, for end-to-end tests.
//
//   node client.mjs SCRIPT.json
//
// SCRIPT: {
//   "command": "...", "args": [...], "cwd": "...",   // the server (or proxy) to spawn
//   "env": {"NAME": "value" | null},                  // added to this process's environment
//                                                      // (null removes a variable)
//   "timeoutMs": 30000,                                // per request (SDK default: 60000)
//   "reportExit": false,                               // true: one more line when done
//   "elicitation": [{"action": "accept", "content": {...}} | {"action": "decline"} | ...],
//                                                      // given (even []): the client declares
//                                                      // form elicitation and answers requests
//                                                      // with these, in order (then: decline)
//   "url": "http://127.0.0.1:PORT/mcp",               // instead of "command": connect over
//   "headers": {"Authorization": "Bearer ..."},        // Streamable HTTP, with these headers
//   "steps": [{"op": "list"},
//             {"op": "call", "name": "read_text_file", "arguments": {...}},
//             {"op": "sleep", "ms": 1500}]
// }
//
// Prints one JSON line per step on stdout:
//   {"op":"list","tools":[names...],"annotations":{name: annotations}}
//   {"op":"list","error":{...}}                        (JSON-RPC error, as for a call)
//   {"op":"call","name":...,"result":<CallToolResult>}
//   {"op":"call","name":...,"error":{"code":..,"message":..[,"data":..]}}   (JSON-RPC error;
//       "message" is the peer's message, without the SDK's "MCP error CODE: " prefix)
// A step during which the peer asked by elicitation gets "elicitations": [{message,
// requestedSchema}...]. And, with "reportExit", {"op":"exit","code":..,"signal":..,"closeMs":..}: how the spawned
// process ended and how long closing took (the SDK sends SIGTERM after 2 s, SIGKILL after 4 s).
// Exits 0; on a bad script or a failed connection prints {"fatal": message} and exits 1.
// The server's stderr is inherited. Without "elicitation" the client declares no
// capabilities at all (no roots, no elicitation), so a proxy has no one to ask through it.
import { readFileSync } from "node:fs";
import process from "node:process";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";

function emit(object) {
  process.stdout.write(JSON.stringify(object) + "\n");
}

function fatal(message) {
  emit({ fatal: String(message) });
  process.exit(1);
}

function rpcError(error) {
  if (error instanceof McpError) {
    const prefix = `MCP error ${error.code}: `;
    const message = error.message.startsWith(prefix)
      ? error.message.slice(prefix.length)
      : error.message;
    const out = { code: error.code, message };
    if (error.data !== undefined) out.data = error.data;
    return out;
  }
  return null;
}

async function listAll(client, options) {
  const tools = [];
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : {}, options);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

async function runStep(client, step, options) {
  if (step.op === "list") {
    try {
      const tools = await listAll(client, options);
      const annotations = {};
      for (const tool of tools) annotations[tool.name] = tool.annotations ?? null;
      return { op: "list", tools: tools.map((t) => t.name), annotations };
    } catch (error) {
      const rpc = rpcError(error);
      if (rpc === null) throw error;
      return { op: "list", error: rpc };
    }
  }
  if (step.op === "call") {
    try {
      const result = await client.callTool(
        { name: step.name, arguments: step.arguments ?? {} },
        undefined,
        options,
      );
      return { op: "call", name: step.name, result };
    } catch (error) {
      const rpc = rpcError(error);
      if (rpc === null) throw error;
      return { op: "call", name: step.name, error: rpc };
    }
  }
  if (step.op === "sleep") {
    await new Promise((resolve) => setTimeout(resolve, step.ms ?? 0));
    return { op: "sleep" };
  }
  throw new Error(`unknown op ${JSON.stringify(step.op)}`);
}

async function main() {
  if (process.argv.length !== 3) fatal("usage: node client.mjs SCRIPT.json");
  let script;
  try {
    script = JSON.parse(readFileSync(process.argv[2], "utf8"));
  } catch (error) {
    fatal(`cannot read the script: ${error.message}`);
  }
  if (typeof script.command !== "string" && typeof script.url !== "string") {
    fatal("the script has no command and no url");
  }

  // The SDK passes only HOME, LOGNAME, PATH, SHELL, TERM and USER unless given an
  // environment: give it ours plus the script's.
  const env = { ...process.env };
  for (const [name, value] of Object.entries(script.env ?? {})) {
    if (value === null) {
      delete env[name];
    } else {
      env[name] = String(value);
    }
  }
  const transport =
    typeof script.url === "string"
      ? new StreamableHTTPClientTransport(new URL(script.url), {
          requestInit: { headers: script.headers ?? {} },
        })
      : new StdioClientTransport({
          command: script.command,
          args: script.args ?? [],
          cwd: script.cwd,
          env,
          stderr: "inherit",
        });
  const answers = script.elicitation;
  const capabilities = Array.isArray(answers) ? { elicitation: { form: {} } } : {};
  const client = new Client({ name: "toolguard-e2e-client", version: "1.0.0" }, { capabilities });
  let asked = [];  // the elicitations of the current step
  if (Array.isArray(answers)) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push({ message: request.params.message, requestedSchema: request.params.requestedSchema });
      return answers.shift() ?? { action: "decline" };
    });
  }
  const options = script.timeoutMs ? { timeout: script.timeoutMs } : undefined;

  let exit = null;
  try {
    await client.connect(transport, options);
  } catch (error) {
    await transport.close().catch(() => {});
    fatal(`connect failed: ${error.message}`);
  }
  // How the spawned process ends (the SDK keeps the child private).
  const child = transport._process;
  child?.once("exit", (code, signal) => {
    exit = { code, signal };
  });

  for (const step of script.steps ?? []) {
    try {
      asked = [];
      const line = await runStep(client, step, options);
      if (asked.length > 0) line.elicitations = asked;
      emit(line);
    } catch (error) {
      await client.close().catch(() => {});
      fatal(`step ${JSON.stringify(step)} failed: ${error.message}`);
    }
  }

  const closing = Date.now();
  await client.close();
  if (script.reportExit) {
    // close() resolves on the child's "close" event or after its kill timeouts.
    emit({ op: "exit", ...(exit ?? { code: null, signal: null }), closeMs: Date.now() - closing });
  }
}

main().then(
  () => {
    process.exitCode = 0;
  },
  (error) => fatal(error?.stack ?? error),
);
