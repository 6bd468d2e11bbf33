// Times one decision through the binding: ns per guard.check (JS thread) and
// per guard.checkAsync (a worker thread), awaited one at a time and 64 at once,
// beside the bare C API decision (tg_guard_decide + tg_decision_free through
// the addon's hidden _bareDecide) in the same process: guard.check minus that
// is what the binding adds. Usage: node bench.mjs [iterations]   (not a test)
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Guard } from 'toolguard';

const iterations = Number(process.argv[2] ?? 200000);
const home = mkdtempSync(join(tmpdir(), 'toolguard-bench-'));
const options = { user: false, project: false, managed: false, audit: false, home };
const guard = new Guard(options);
// The addon index.js loaded (the same module object), for the bare C API loop.
const here = dirname(fileURLToPath(import.meta.url));
const addonPath = process.env.TOOLGUARD_NODE_ADDON ??
  [join(here, 'build', 'Release', 'toolguard.node'), join(here, 'build', 'Debug', 'toolguard.node')].find(existsSync);
const addon = createRequire(import.meta.url)(addonPath);
const call = { tool: 'Bash', args: { command: 'git status' }, context: { cwd: '/workspace' } };

// Prints and returns the ns per run of `ns` total for n runs.
function report(label, n, ns) {
  console.log(`${label.padEnd(42)} ${(ns / n).toFixed(0).padStart(8)} ns/call  (${n} calls)`);
  return ns / n;
}

// Runs the async `fn` n times (after a warm-up), one after the other.
async function time(label, n, fn) {
  for (let i = 0; i < Math.min(n, 2000); i++) await fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn();
  return report(label, n, Number(process.hrtime.bigint() - start));
}

const verdict = guard.check(call).verdict;
if (verdict !== 'allow') throw new Error(`expected allow, got ${verdict}`);
const text = JSON.stringify(guard.check(call));

// The synchronous variants, timed in `rounds` interleaved rounds of n/rounds
// runs each (a noisy machine then slows them alike); each reports its median
// round. The floor: tg_guard_decide + tg_decision_free (the hidden
// _bareDecide), same process and guard options, the call's JSON text
// converted once: looped in the addon, and one per call from JS (as
// guard.check is called: the floor the binding is measured against).
const rounds = 7;
const perRound = Math.max(1, Math.floor(iterations / rounds));
const native = typeof addon.Guard.prototype._bareDecide === 'function'
  ? new addon.Guard(JSON.stringify(options)) : null;
const callText = JSON.stringify(call);
// Each runs `fn` perRound times (after a warm-up) and returns the ns per run.
const syncRun = (fn) => () => {
  const start = process.hrtime.bigint();
  for (let i = 0; i < perRound; i++) fn();
  return Number(process.hrtime.bigint() - start) / perRound;
};
const variants = [
  ...(native ? [
    ['bare C API, looped in the addon', () => {
      const start = process.hrtime.bigint();
      native._bareDecide(callText, perRound);
      return Number(process.hrtime.bigint() - start) / perRound;
    }],
    ['bare C API, one _bareDecide per JS call', syncRun(() => native._bareDecide(callText, 1))],
  ] : []),
  ['guard.check', syncRun(() => guard.check(call))],
  // As an app does between checks; node runs Node-API finalizers there.
  ['guard.check, event loop turning per 1000', async () => {
    await new Promise(setImmediate);
    const start = process.hrtime.bigint();
    for (let i = 0; i < perRound; i++) {
      guard.check(call);
      if (i % 1000 === 999) await new Promise(setImmediate);
    }
    return Number(process.hrtime.bigint() - start) / perRound;
  }],
  ['guard.check, then .id read (lazy JSON)', syncRun(() => guard.check(call).id)],
  ['  JSON.stringify(call)', syncRun(() => JSON.stringify(call))],
  ['  JSON.stringify(call) + JSON.parse(decision)', syncRun(() => JSON.stringify(call) && JSON.parse(text))],
];
const times = variants.map(() => []);
for (let round = -1; round < rounds; round++) {  // round -1: the warm-up
  for (const [v, [, run]] of variants.entries()) {
    const ns = await run();
    if (round >= 0) times[v].push(ns);
  }
}
const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
const result = {};
for (const [v, [label]] of variants.entries()) {
  result[label] = median(times[v]);
  console.log(`${label.padEnd(46)} ${result[label].toFixed(0).padStart(8)} ns/call  (median of ${rounds} x ${perRound})`);
}
if (native) {
  const bare = result['bare C API, one _bareDecide per JS call'];
  for (const label of ['guard.check', 'guard.check, event loop turning per 1000']) {
    console.log(`${`binding cost: ${label} - bare per JS call`.padEnd(62)} ${(result[label] - bare).toFixed(0).padStart(8)} ns/call`);
  }
  native.close();
}
await time('guard.checkAsync (one at a time)', Math.ceil(iterations / 10), () => guard.checkAsync(call));
const batch = 64;
const batched = await time(`guard.checkAsync (${batch} at once), per batch`, Math.ceil(iterations / 10 / batch),
  () => Promise.all(Array.from({ length: batch }, () => guard.checkAsync(call))));
console.log(`${'  per call'.padEnd(42)} ${(batched / batch).toFixed(0).padStart(8)} ns/call`);
guard.close();
rmSync(home, { recursive: true, force: true });
