// Shared by the tests: temporary directories and the guard options of the
// corpus (the built-in policy alone, nothing written outside a temp dir).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A new temporary directory, removed when the test `t` ends. */
export function tempDir(t, prefix = 'toolguard-node-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Guard options: the built-in policy only, toolguard's home in `home`. */
export function builtinOptions(home) {
  return { user: false, project: false, managed: false, audit: false, home };
}

/** Writes a policy file `name` with `text` into `dir`; returns its path. */
export function writePolicy(dir, name, text) {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
