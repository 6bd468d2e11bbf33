// toolguardValidator with the real multi-llm-ts (5.1.1) and its OpenAI
// provider, pointed at a scripted OpenAI-style chat-completions server on
// loopback whose model asks for a destructive Bash call. The tool's execute
// must never run.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { test } from 'node:test';

import { igniteEngine, logger, Message, Plugin } from 'multi-llm-ts';
import { Guard, tellModelWhy, toolguardValidator } from 'toolguard';

import { builtinOptions, tempDir, writePolicy } from './helpers.mjs';

logger.disable();

// What the scripted model asks to run: judged, never run.
const DESTRUCTIVE = 'rm -rf ~';
const MODEL = 'gpt-4o-mini';  // no "chat" in it: multi-llm-ts sends tools
const FINAL_TEXT = 'I will not run that command.';

// A policy that stops the whole generation on any `rm`.
const ABORT_POLICY = `version: 1
rules:
  - id: stop-on-rm
    kind: shell
    shell: "rm *"
    verdict: abort
    reason: deleting files stops the agent
`;

// The scripted model's reply to a request: a Bash tool call first, plain
// text once the request carries a tool result.
function replyTo(payload) {
  const answered = payload.messages.some((m) => m.role === 'tool');
  return answered
    ? { text: FINAL_TEXT }
    : { tool: { id: 'call_1', name: 'Bash', arguments: JSON.stringify({ command: DESTRUCTIVE }) } };
}

const chunk = (delta, finish = null) => ({
  id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: MODEL,
  choices: [{ index: 0, delta, finish_reason: finish }],
});

// The server's SSE events for a streamed reply.
function streamEvents(reply) {
  if (reply.text) {
    return [chunk({ role: 'assistant', content: reply.text }), chunk({}, 'stop')];
  }
  const { id, name, arguments: args } = reply.tool;
  return [
    chunk({ role: 'assistant', content: null,
      tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: args } }] }),
    chunk({}, 'tool_calls'),
  ];
}

// The server's body for a non-streamed reply.
function completion(reply) {
  const message = reply.text
    ? { role: 'assistant', content: reply.text }
    : { role: 'assistant', content: null, tool_calls: [{ id: reply.tool.id, type: 'function',
      function: { name: reply.tool.name, arguments: reply.tool.arguments } }] };
  return {
    id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: MODEL,
    choices: [{ index: 0, message, finish_reason: reply.text ? 'stop' : 'tool_calls' }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

// Starts the scripted server; resolves to {baseURL, requests, close}.
async function startModelServer(t) {
  const requests = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const part of req) body += part;
    if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
      res.writeHead(404).end();
      return;
    }
    const payload = JSON.parse(body);
    requests.push(payload);
    const reply = replyTo(payload);
    if (payload.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const event of streamEvents(reply)) res.write(`data: ${JSON.stringify(event)}\n\n`);
      res.end('data: [DONE]\n\n');
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion(reply)));
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return { baseURL: `http://127.0.0.1:${server.address().port}/v1`, requests };
}

// The Bash tool: its execute removes the canary file (and records the run).
class BashPlugin extends Plugin {
  constructor(canary) {
    super();
    this.canary = canary;
    this.runs = 0;
  }

  isEnabled() { return true; }
  getName() { return 'Bash'; }
  getDescription() { return 'Runs a shell command'; }
  getRunningDescription() { return 'Running a command'; }
  getParameters() {
    return [{ name: 'command', type: 'string', description: 'The command', required: true }];
  }

  async execute() {
    this.runs += 1;
    rmSync(this.canary, { force: true });
    return { output: 'done' };
  }
}

// An engine on the scripted server with the Bash tool; and the canary.
async function setUp(t) {
  const dir = tempDir(t);
  const canary = join(dir, 'canary.txt');
  writeFileSync(canary, 'still here\n');
  const server = await startModelServer(t);
  const engine = igniteEngine('openai', { apiKey: 'x', baseURL: server.baseURL });
  const bash = new BashPlugin(canary);
  engine.addPlugin(bash);
  const untouched = () => {
    assert.equal(bash.runs, 0, 'the tool ran');
    assert.ok(existsSync(canary), 'the canary is gone');
  };
  return { dir, server, engine, untouched };
}

const thread = () => [new Message('system', 'You are a helpful agent.'), new Message('user', 'Clean up my disk.')];

async function collect(stream) {
  const chunks = [];
  for await (const c of stream) chunks.push(c);
  return chunks;
}

test('deny: the tool call is canceled, the model is told why, and the generation carries on', async (t) => {
  const { dir, server, engine, untouched } = await setUp(t);
  const validate = toolguardValidator({ guardOptions: builtinOptions(dir), cwd: dir, engine });
  const chunks = await collect(engine.generate(MODEL, thread(), { toolExecutionValidation: validate }));
  const canceled = chunks.find((c) => c.type === 'tool' && c.state === 'canceled');
  assert.ok(canceled, JSON.stringify(chunks));
  assert.equal(canceled.name, 'Bash');
  assert.ok(!chunks.some((c) => c.type === 'tool_abort'));
  const text = chunks.filter((c) => c.type === 'content').map((c) => c.text).join('');
  assert.equal(text, FINAL_TEXT);
  assert.equal(server.requests.length, 2);
  // The model is told why, in the tool result of the second request:
  // toolguard's reason for the model, not multi-llm-ts's fixed text.
  const toolResult = server.requests[1].messages.find((m) => m.role === 'tool');
  const sent = JSON.parse(toolResult.content);
  const expected = (await validate({ model: MODEL }, 'Bash', { command: DESTRUCTIVE })).extra.reason;
  assert.match(expected, /^Blocked by toolguard/);
  assert.deepEqual(sent, { error: expected });
  assert.doesNotMatch(toolResult.content, /denied by validation function/);
  assert.equal(canceled.call.result.error, expected);  // the chunk says the same
  untouched();
});

test('without the engine option the model reads only multi-llm-ts\'s fixed text', async (t) => {
  const { dir, server, engine, untouched } = await setUp(t);
  const validate = toolguardValidator({ guardOptions: builtinOptions(dir), cwd: dir });
  await collect(engine.generate(MODEL, thread(), { toolExecutionValidation: validate }));
  const toolResult = server.requests[1].messages.find((m) => m.role === 'tool');
  assert.deepEqual(JSON.parse(toolResult.content),
    { error: 'Tool Bash execution denied by validation function.' });
  // tellModelWhy adds the hook afterwards; the next generation tells why.
  const remove = tellModelWhy(engine, validate);
  await collect(engine.generate(MODEL, thread(), { toolExecutionValidation: validate }));
  const told = JSON.parse(server.requests[3].messages.find((m) => m.role === 'tool').content);
  assert.match(told.error, /^Blocked by toolguard/);
  remove();
  assert.throws(() => tellModelWhy({}, validate), TypeError);
  assert.throws(() => tellModelWhy(engine, async () => ({})), TypeError);
  untouched();
});

test('the validator\'s response carries the reason and the decision', async (t) => {
  const dir = tempDir(t);
  const validate = toolguardValidator({ guardOptions: builtinOptions(dir), cwd: dir });
  const denied = await validate({ model: MODEL }, 'Bash', { command: DESTRUCTIVE });
  assert.equal(denied.decision, 'deny');
  assert.equal(denied.extra.reason, denied.extra.meta.model_reason);
  assert.equal(denied.extra.meta.tool, 'Bash');
  assert.equal(typeof denied.extra.meta.rule, 'string');
  // meta is the whole decision as a plain object (what JSON.stringify writes).
  assert.equal(Object.getPrototypeOf(denied.extra.meta), Object.prototype);
  assert.ok(Object.keys(denied.extra.meta).includes('basis'));
  const allowed = await validate({ model: MODEL }, 'Bash', { command: 'git status' });
  assert.equal(allowed.decision, 'allow');
  assert.equal(allowed.extra.meta.verdict, 'allow');
  // Arguments that are not an object (a model's broken JSON): deny.
  assert.equal((await validate({ model: MODEL }, 'Bash', 'rm')).decision, 'deny');
});

test('ask: the options\' asker decides; without one an ask denies', async (t) => {
  const dir = tempDir(t);
  const policy = writePolicy(dir, 'ask.yaml',
    'version: 1\nrules:\n  - id: ask-for-make\n    shell: "make *"\n    verdict: ask\n    reason: builds need a person\n');
  const guardOptions = { ...builtinOptions(dir), policy_files: [policy] };
  const call = { command: 'make deploy' };
  const noAsker = toolguardValidator({ guardOptions, cwd: dir });
  const refused = await noAsker({ model: MODEL }, 'Bash', call);
  assert.equal(refused.decision, 'deny');
  assert.equal(refused.extra.meta.verdict, 'ask');
  const asked = [];
  const guard = new Guard(guardOptions);
  t.after(() => guard.close());
  const withAsker = toolguardValidator({
    guard, cwd: dir, asker: (request) => { asked.push(request); return { outcome: 'allow-once' }; },
  });
  assert.equal((await withAsker({ model: MODEL }, 'Bash', call)).decision, 'allow');
  assert.equal(asked.length, 1);
  assert.equal(asked[0].call.context.agent, 'multi-llm-ts');
  assert.equal(asked[0].call.context.model, MODEL);
});

test('abort: the abort chunk is emitted and the generation stops', async (t) => {
  const { dir, server, engine, untouched } = await setUp(t);
  const policy = writePolicy(dir, 'abort.yaml', ABORT_POLICY);
  const validate = toolguardValidator({ guardOptions: { ...builtinOptions(dir), policy_files: [policy] }, cwd: dir });
  const chunks = await collect(engine.generate(MODEL, thread(), { toolExecutionValidation: validate }));
  const abort = chunks.find((c) => c.type === 'tool_abort');
  assert.ok(abort, JSON.stringify(chunks));
  assert.equal(abort.name, 'Bash');
  assert.equal(abort.reason.decision, 'abort');
  assert.equal(abort.reason.extra.meta.rule, 'stop-on-rm');
  assert.match(abort.reason.extra.reason, /toolguard/i);
  assert.equal(chunks.at(-1), abort);
  assert.ok(!chunks.some((c) => c.type === 'content'));
  assert.equal(server.requests.length, 1);
  untouched();
});

test('complete(): deny raises "Tool execution was canceled", abort raises the abort', async (t) => {
  const { dir, server, engine, untouched } = await setUp(t);
  const deny = toolguardValidator({ guardOptions: builtinOptions(dir), cwd: dir });
  await assert.rejects(engine.complete(MODEL, thread(), { toolExecutionValidation: deny }),
    { message: 'Tool execution was canceled' });
  const policy = writePolicy(dir, 'abort.yaml', ABORT_POLICY);
  const abort = toolguardValidator({ guardOptions: { ...builtinOptions(dir), policy_files: [policy] }, cwd: dir });
  await assert.rejects(engine.complete(MODEL, thread(), { toolExecutionValidation: abort }), (error) => {
    assert.ok(!(error instanceof Error));  // multi-llm-ts throws the abort chunk itself
    assert.equal(error.type, 'tool_abort');
    assert.equal(error.reason.decision, 'abort');
    assert.equal(error.reason.extra.meta.rule, 'stop-on-rm');
    return true;
  });
  assert.ok(server.requests.every((r) => !r.stream));
  assert.equal(server.requests.length, 2);
  untouched();
});
