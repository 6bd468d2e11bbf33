// Times one decision through the binding: ns per guard.check (JS thread) and
// per guard.checkAsync (a worker thread), awaited one at a time and 64 at once.
// Usage: node bench.mjs [iterations]   (not a test: prints numbers)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Guard } from 'toolguard';

const iterations = Number(process.argv[2] ?? 200000);
const home = mkdtempSync(join(tmpdir(), 'toolguard-bench-'));
const guard = new Guard({ user: false, project: false, managed: false, audit: false, home });
const call = { tool: 'Bash', args: { command: 'git status' }, context: { cwd: '/workspace' } };

// Prints and returns the ns per run of `ns` total for n runs.
function report(label, n, ns) {
  console.log(`${label.padEnd(42)} ${(ns / n).toFixed(0).padStart(8)} ns/call  (${n} calls)`);
  return ns / n;
}

// Runs `fn` n times (after a warm-up) on the JS thread, awaiting nothing.
function timeSync(label, n, fn) {
  for (let i = 0; i < Math.min(n, 5000); i++) fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  return report(label, n, Number(process.hrtime.bigint() - start));
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
timeSync('guard.check', iterations, () => guard.check(call));
timeSync('  of which JSON.stringify(call) + parse', iterations, () => JSON.stringify(call) && JSON.parse(text));
await time('guard.checkAsync (one at a time)', Math.ceil(iterations / 10), () => guard.checkAsync(call));
const batch = 64;
const batched = await time(`guard.checkAsync (${batch} at once), per batch`, Math.ceil(iterations / 10 / batch),
  () => Promise.all(Array.from({ length: batch }, () => guard.checkAsync(call))));
console.log(`${'  per call'.padEnd(42)} ${(batched / batch).toFixed(0).padStart(8)} ns/call`);
guard.close();
rmSync(home, { recursive: true, force: true });
