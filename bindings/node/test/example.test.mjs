// Runs example.mjs (the README's example) exactly as it is, in a new node.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { tempDir } from './helpers.mjs';

test('example.mjs prints allow for git status and a refusal for the destructive command', (t) => {
  const home = tempDir(t);
  const example = fileURLToPath(new URL('../example.mjs', import.meta.url));
  // Its approvals, audit log and user policy live in a temp home.
  const result = spawnSync(process.execPath, [example], {
    cwd: home, encoding: 'utf8', timeout: 20000, env: { ...process.env, TOOLGUARD_HOME: home, HOME: home },
  });
  assert.equal(result.status, 0, result.stderr);
  const lines = result.stdout.trim().split('\n');
  assert.equal(lines.length, 2, result.stdout);
  assert.match(lines[0], /^git status: allow \(/);
  assert.match(lines[1], /^rm -rf ~: (deny|abort) \(.+\)$/);
});
