// The shell corpus through the binding: every call judged by the Node.js
// binding gets the decision the C++ engine gave it (bindings/corpus).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { Guard } from 'toolguard';

import { builtinOptions, tempDir } from './helpers.mjs';

const FIELDS = ['verdict', 'rule', 'reason', 'model_reason'];

// The corpus cases, or null when TOOLGUARD_CORPUS is not set.
function corpusCases() {
  const path = process.env.TOOLGUARD_CORPUS;
  if (!path) return null;
  return readFileSync(path, 'utf8').split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line));
}

// A field as compared: where /proc/self and /dev/stdin lead differs from
// process to process ("(-> /proc/1234/environ)"), so that part is left out.
const comparable = (value) =>
  typeof value === 'string' ? value.replace(/\(-> \/proc\/[^)]*\)/g, '(-> /proc/...)') : value;

// "name: field: got X, expected Y" for every field that differs.
function mismatchesOf(name, got, expected) {
  return FIELDS.filter((field) => comparable(got[field]) !== comparable(expected[field])).map(
    (field) => `${name}: ${field}: got ${JSON.stringify(got[field])}, expected ${JSON.stringify(expected[field])}`);
}

const cases = corpusCases();
const skip = cases ? false : 'TOOLGUARD_CORPUS is not set (ctest sets it)';

test('check gives the C++ engine\'s decision for every corpus call', { skip }, (t) => {
  assert.ok(cases.length > 0, 'the corpus is empty');
  const guard = new Guard(builtinOptions(tempDir(t)));
  const mismatches = cases.flatMap(({ name, call, expected }) => mismatchesOf(name, guard.check(call), expected));
  guard.close();
  assert.deepEqual(mismatches, [], `${mismatches.length} mismatches:\n${mismatches.join('\n')}`);
});

test('checkAsync, all calls at once, gives the same decisions', { skip }, async (t) => {
  const guard = new Guard(builtinOptions(tempDir(t)));
  const decisions = await Promise.all(cases.map(({ call }) => guard.checkAsync(call)));
  guard.close();
  const mismatches = cases.flatMap(({ name, expected }, i) => mismatchesOf(name, decisions[i], expected));
  assert.deepEqual(mismatches, [], `${mismatches.length} mismatches:\n${mismatches.join('\n')}`);
});
