// The Guard class: check, checkAsync, the asker, errors and shutdown.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';

import { Guard, version } from 'toolguard';

import { builtinOptions, tempDir, writePolicy } from './helpers.mjs';

// Judged, never run.
const DESTRUCTIVE = 'rm -rf ~';
const INDEX_URL = new URL('../index.js', import.meta.url).href;

// A policy whose `deploy` tool always needs a person's approval.
const ASK_POLICY = `version: 1
tools:
  deploy:
    description: Deploys the service
    kind: other
    risk: high
rules:
  - id: deploys-need-a-person
    tool: deploy
    verdict: ask
    reason: deploys need a person
`;

// A guard on the built-in policy plus ASK_POLICY, its home in a temp dir.
function askGuard(t, extra = {}) {
  const dir = tempDir(t);
  const guard = new Guard({
    ...builtinOptions(dir),
    policy_files: [writePolicy(dir, 'ask.yaml', ASK_POLICY)],
    ...extra,
  });
  t.after(() => guard.close());
  return { guard, dir };
}

const deploy = (dir, env = 'prod') => ({ tool: 'deploy', args: { env }, context: { cwd: dir } });

test('version is the library\'s', () => {
  assert.match(version, /^\d+\.\d+\.\d+/);
});

test('check judges calls on the built-in policy', (t) => {
  const dir = tempDir(t);
  const guard = new Guard(builtinOptions(dir));
  t.after(() => guard.close());
  const safe = guard.check({ tool: 'Bash', args: { command: 'git status' }, context: { cwd: dir } });
  assert.equal(safe.verdict, 'allow');
  const bad = guard.check({ tool: 'Bash', args: { command: DESTRUCTIVE }, context: { cwd: dir } });
  assert.ok(['deny', 'abort'].includes(bad.verdict), JSON.stringify(bad));
  assert.equal(typeof bad.rule, 'string');
  assert.match(bad.model_reason, /toolguard/i);
  // The (tool, args, context) form is the same call.
  assert.deepEqual(
    { ...guard.check('Bash', { command: DESTRUCTIVE }, { cwd: dir }), id: undefined },
    { ...bad, id: undefined });
});

test('checkAsync gives the decision check gives', async (t) => {
  const dir = tempDir(t);
  const guard = new Guard(builtinOptions(dir));
  t.after(() => guard.close());
  const call = { tool: 'Bash', args: { command: DESTRUCTIVE }, context: { cwd: dir } };
  const [sync, async] = [guard.check(call), await guard.checkAsync(call)];
  assert.equal(async.verdict, sync.verdict);
  assert.equal(async.rule, sync.rule);
  assert.equal(async.reason, sync.reason);
});

test('a decision has every field: the main four at once, the others read lazily', async (t) => {
  const dir = tempDir(t);
  const guard = new Guard(builtinOptions(dir));
  const call = { tool: 'Bash', args: { command: DESTRUCTIVE }, context: { cwd: dir } };
  const decisions = [guard.check(call), await guard.checkAsync(call), guard.check(call)];
  guard.close();  // a decision outlives its guard
  for (const decision of decisions) {
    assert.deepEqual(Object.keys(decision), ['verdict', 'reason', 'model_reason', 'rule']);
    const full = JSON.parse(JSON.stringify(decision));
    for (const field of ['verdict', 'reason', 'model_reason', 'rule', 'source', 'basis', 'tool']) {
      assert.ok(Object.hasOwn(full, field), field);
    }
    assert.equal(full.tool, 'Bash');
    assert.equal(typeof full.source, 'string');
    assert.equal(typeof full.basis, 'string');
    for (const [field, value] of Object.entries(full)) assert.deepEqual(decision[field], value, field);
    assert.deepEqual(decision.toJSON(), full);
    assert.equal(decision.policy_verdict, full.policy_verdict);  // undefined when absent, as parsed
  }
  // Fields can be set, as on a plain object.
  const [decision] = decisions;
  decision.id = 'mine';
  decision.verdict = 'ask';
  assert.equal(decision.id, 'mine');
  assert.equal(JSON.parse(JSON.stringify(decision)).id, 'mine');
  assert.equal(decision.toJSON().verdict, 'ask');
  // A malformed call's decision, with no rule.
  const again = new Guard(builtinOptions(dir));
  const bad = again.check({ args: {} });
  again.close();
  assert.equal(bad.rule, null);
  assert.equal(bad.basis, JSON.parse(JSON.stringify(bad)).basis);
});

test('bad options throw the C API\'s message', (t) => {
  const dir = tempDir(t);
  assert.throws(() => new Guard({ ...builtinOptions(dir), no_such_option: true }),
    { message: /unknown member "no_such_option"/ });
  assert.throws(() => new Guard({ audit: 'yes' }), { message: /"audit" must be true or false/ });
  const broken = writePolicy(dir, 'broken.yaml', 'version: 1\nrules:\n  - id: x\n    verdict: perhaps\n');
  assert.throws(() => new Guard({ ...builtinOptions(dir), policy_files: [broken] }),
    (error) => error instanceof Error && error.message.includes('broken.yaml') && /:4/.test(error.message));
  assert.throws(() => new Guard('builtin'), TypeError);
});

test('a malformed call is a deny naming the field', async (t) => {
  const dir = tempDir(t);
  const guard = new Guard(builtinOptions(dir));
  t.after(() => guard.close());
  const cases = [
    [{ args: { command: 'ls' } }, /tool/],
    [{ tool: 'Bash', args: 'ls' }, /args/],
    [{ tool: 'Bash', args: {}, context: { cwd: 5 } }, /context\.cwd/],
    [{ tool: 'Bash', args: {}, context: { session_id: 'x' } }, /session_id/],
    [undefined, /./],
    [{ tool: 'Bash', args: { n: 1n } }, /./],  // BigInt: not JSON at all
  ];
  for (const [call, reason] of cases) {
    for (const decision of [guard.check(call), await guard.checkAsync(call)]) {
      assert.equal(decision.verdict, 'deny', JSON.stringify(decision));
      assert.match(decision.reason, reason);
    }
  }
});

test('without an asker an ask is reported as ask', async (t) => {
  const { guard, dir } = askGuard(t);
  assert.equal(guard.check(deploy(dir)).verdict, 'ask');
  assert.equal((await guard.checkAsync(deploy(dir))).verdict, 'ask');
});

test('checkAsync asks the asker; allow-once allows that call only', async (t) => {
  const { guard, dir } = askGuard(t);
  const requests = [];
  guard.setAsker(async (request) => {
    requests.push(request);
    return { outcome: 'allow-once' };
  });
  assert.equal((await guard.checkAsync(deploy(dir))).verdict, 'allow');
  assert.equal((await guard.checkAsync(deploy(dir))).verdict, 'allow');
  assert.equal(requests.length, 2);
  const [request] = requests;
  assert.equal(request.call.tool, 'deploy');
  assert.deepEqual(request.call.args, { env: 'prod' });
  assert.equal(request.decision.rule, 'deploys-need-a-person');
  assert.ok(request.options.length > 0);
  assert.ok(request.scopes.length > 0);
});

test('always-allow: the next call is allowed without asking', async (t) => {
  const { guard, dir } = askGuard(t);
  let asks = 0;
  guard.setAsker((request) => {
    asks += 1;
    return { outcome: 'always-allow', option: 0, scope: request.scopes[0] };
  });
  assert.equal((await guard.checkAsync(deploy(dir))).verdict, 'allow');
  const next = await guard.checkAsync(deploy(dir));
  assert.equal(next.verdict, 'allow');
  assert.equal(asks, 1);
  // The sync check sees the approval too, and asks nobody.
  assert.equal(guard.check(deploy(dir)).verdict, 'allow');
  assert.equal(asks, 1);
});

test('a deny answer denies, with its reason', async (t) => {
  const { guard, dir } = askGuard(t);
  guard.setAsker(() => ({ outcome: 'deny', reason: 'not on a Friday' }));
  const decision = await guard.checkAsync(deploy(dir));
  assert.equal(decision.verdict, 'deny');
  assert.match(JSON.stringify(decision), /not on a Friday/);
});

test('an asker that fails or gives no answer denies', async (t) => {
  const { guard, dir } = askGuard(t);
  const askers = [
    () => { throw new Error('the terminal is gone'); },
    () => Promise.reject(new Error('the terminal is gone')),
    () => undefined,
    () => 'yes',
    () => ({ outcome: 'maybe' }),
    () => ({ outcome: 'always-allow', option: 99 }),
  ];
  for (const asker of askers) {
    guard.setAsker(asker);
    const decision = await guard.checkAsync(deploy(dir));
    assert.equal(decision.verdict, 'deny', `${asker}: ${JSON.stringify(decision)}`);
  }
});

test('the event loop runs while checkAsync waits for the asker', async (t) => {
  const { guard, dir } = askGuard(t);
  let ticks = 0;
  const timer = setInterval(() => { ticks += 1; }, 5);
  t.after(() => clearInterval(timer));
  guard.setAsker(() => new Promise((resolve) => setTimeout(() => resolve({ outcome: 'allow-once' }), 100)));
  const decision = await guard.checkAsync(deploy(dir));
  assert.equal(decision.verdict, 'allow');
  assert.ok(ticks >= 5, `only ${ticks} ticks while waiting`);
});

test('a sync check cannot wait: a promise denies, a direct answer counts', (t) => {
  const { guard, dir } = askGuard(t);
  guard.setAsker(() => new Promise(() => {}));  // never answers
  const started = Date.now();
  const denied = guard.check(deploy(dir));
  assert.equal(denied.verdict, 'deny');
  assert.match(JSON.stringify(denied), /checkAsync/);
  assert.ok(Date.now() - started < 2000, 'check waited for the asker');
  guard.setAsker(() => ({ outcome: 'allow-once' }));
  assert.equal(guard.check(deploy(dir)).verdict, 'allow');
  guard.setAsker(null);
  assert.equal(guard.check(deploy(dir)).verdict, 'ask');
});

test('an unanswered ask is denied after approval_timeout_ms', async (t) => {
  const { guard, dir } = askGuard(t, { approval_timeout_ms: 200 });
  guard.setAsker(() => new Promise(() => {}));
  const started = Date.now();
  const decision = await guard.checkAsync(deploy(dir));
  assert.equal(decision.verdict, 'deny');
  assert.ok(Date.now() - started >= 150);
});

test('close denies the asks still waiting; a closed guard throws', async (t) => {
  const { guard, dir } = askGuard(t);
  let asked;
  const wasAsked = new Promise((resolve) => { asked = resolve; });
  guard.setAsker(() => { asked(); return new Promise(() => {}); });
  const pending = guard.checkAsync(deploy(dir));
  await wasAsked;
  guard.close();
  const decision = await pending;
  assert.equal(decision.verdict, 'deny');
  assert.match(JSON.stringify(decision), /closed/);
  assert.throws(() => guard.check(deploy(dir)), { message: /closed/ });
  await assert.rejects(guard.checkAsync(deploy(dir)), { message: /closed/ });
  guard.close();  // twice is fine
});

// Runs `code` (an ES module importing the binding as `toolguard`) in a new
// node; returns its result.
function runNode(code) {
  const source = code.replaceAll("'toolguard'", JSON.stringify(INDEX_URL));
  return spawnSync(process.execPath, ['--input-type=module', '-e', source],
    { encoding: 'utf8', timeout: 20000 });
}

test('a guard with an asker does not keep node alive', (t) => {
  const dir = tempDir(t);
  const options = JSON.stringify({ ...builtinOptions(dir), approval_timeout_ms: 300,
    policy_files: [writePolicy(dir, 'ask.yaml', ASK_POLICY)] });
  const idle = runNode(`import { Guard } from 'toolguard';
    const guard = new Guard(${options});
    guard.setAsker(() => new Promise(() => {}));
    console.log(guard.check('Bash', { command: 'git status' }, { cwd: ${JSON.stringify(dir)} }).verdict);`);
  assert.equal(idle.status, 0, idle.stderr);
  assert.equal(idle.stdout.trim(), 'allow');
  // An ask nobody answers: denied at the timeout, then node exits.
  const waiting = runNode(`import { Guard } from 'toolguard';
    const guard = new Guard(${options});
    guard.setAsker(() => new Promise(() => {}));
    guard.checkAsync(${JSON.stringify(deploy(dir))}).then((d) => console.log(d.verdict));`);
  assert.equal(waiting.status, 0, waiting.stderr);
  assert.equal(waiting.stdout.trim(), 'deny');
});

test('a worker thread with an ask waiting terminates cleanly', async (t) => {
  const dir = tempDir(t);
  const options = { ...builtinOptions(dir), policy_files: [writePolicy(dir, 'ask.yaml', ASK_POLICY)] };
  const worker = new Worker(`
    const { parentPort, workerData } = require('node:worker_threads');
    import(workerData.index).then(({ Guard }) => {
      const guard = new Guard(workerData.options);
      guard.setAsker(() => { parentPort.postMessage('asked'); return new Promise(() => {}); });
      guard.checkAsync(workerData.call);
    });
  `, { eval: true, workerData: { index: INDEX_URL, options, call: deploy(dir) } });
  await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  assert.equal(await worker.terminate(), 1);
});

test('runSandboxed runs a command that writes only in its workspace', async (t) => {
  const { existsSync, mkdirSync, readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const dir = tempDir(t);
  const guard = new Guard(builtinOptions(join(dir, 'home')));
  t.after(() => guard.close());
  try {
    guard.runSandboxed(['true'], { cwd: dir });
  } catch (error) {
    if (/cannot hold/.test(error.message)) {
      t.skip(error.message);  // a kernel that cannot hold the default sandbox
      return;
    }
    throw error;
  }
  const workspace = join(dir, 'ws');
  mkdirSync(workspace);
  const outside = join(dir, 'outside.txt');
  const status = guard.runSandboxed(
    ['sh', '-c', `echo in > inside.txt; echo x > '${outside}'; exit 5`],
    { workspaces: [workspace], cwd: workspace });
  assert.equal(status, 5);
  assert.equal(readFileSync(join(workspace, 'inside.txt'), 'utf8'), 'in\n');
  assert.equal(existsSync(outside), false);
  assert.throws(() => guard.runSandboxed(['/no/such/program'], { cwd: dir }), /cannot run/);
  assert.throws(() => guard.runSandboxed('make test'), TypeError);
  // The rule that allowed a call is passed on; one the policy lacks runs nothing.
  assert.throws(() => guard.runSandboxed(['true'], { cwd: dir, rule: 'no-such-rule' }),
    /no rule "no-such-rule"/);
});
