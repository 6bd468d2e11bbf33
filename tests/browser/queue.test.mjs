// The approval queue page of `toolguard serve` (issue 21), end to end in a real browser:
// Debian's chromium driven by playwright-core (which never downloads a browser), against a
// real `toolguard serve` and agents asking through `toolguard check --server`.
//
//   node --test tests/browser/queue.test.mjs        (from any directory)
//
// Environment: TOOLGUARD_BINARY (default <repo>/build/release/toolguard), TOOLGUARD_TEST_STORE
// ("file", the default, or a postgresql:// URL), TOOLGUARD_SCREENSHOTS (a directory for
// queue.png and ask.png; none by default), CHROMIUM (default /usr/bin/chromium).
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {mkdtemp, mkdir, rm} from 'node:fs/promises';
import {randomBytes} from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {chromium} from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const BINARY = process.env.TOOLGUARD_BINARY || path.join(repo, 'build', 'release', 'toolguard');
const STORE = process.env.TOOLGUARD_TEST_STORE || 'file';
const SHOTS = process.env.TOOLGUARD_SCREENSHOTS || '';
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
// A shared PostgreSQL database may already know these names (and hold other runs' asks).
const TAG = STORE === 'file' ? '' : '-' + randomBytes(3).toString('hex');
const FILE_STORE = STORE === 'file';

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

let tmp, env, server, base, browser;
const tokens = {};
const names = {agent: 'ci-bot' + TAG, alice: 'alice' + TAG, bob: 'bob' + TAG};
const children = new Set();
const T = {timeout: 40000};   // each test; the whole file takes about 30 s

// ---------------------------------------------------------------- processes

function run(args, {input = '', extraEnv = {}} = {}) {
  return new Promise((resolve, reject) => {
    const p = spawn(BINARY, args, {env: {...env, ...extraEnv}, stdio: ['pipe', 'pipe', 'pipe']});
    children.add(p);
    let stdout = '', stderr = '';
    p.stdout.on('data', (d) => { stdout += d; });
    p.stderr.on('data', (d) => { stderr += d; });
    p.on('error', reject);
    p.on('close', (code, signal) => { children.delete(p); resolve({code, signal, stdout, stderr}); });
    p.stdin.end(input);
  });
}

async function addToken(role, name) {
  const r = await run(['serve', 'token', 'add', '--role', role, '--name', name, '--owner', name,
    '--store', STORE]);
  assert.equal(r.code, 0, `token add ${name}: ${r.stderr}${r.stdout}`);
  const lines = r.stdout.trim().split('\n');
  const token = lines[lines.length - 1].trim();
  assert.match(token, /^\S{16,}$/, `token add ${name} printed ${JSON.stringify(r.stdout)}`);
  return token;
}

function startServer() {
  return new Promise((resolve, reject) => {
    const p = spawn(BINARY, ['serve', '--listen', '127.0.0.1:0', '--store', STORE],
      {env, stdio: ['ignore', 'pipe', 'pipe']});
    let out = '', err = '';
    const timer = setTimeout(() => reject(new Error(`serve did not say where it listens:\n${out}${err}`)), 20000);
    p.stderr.on('data', (d) => { err += d; });
    p.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m) { clearTimeout(timer); resolve({proc: p, url: m[1].replace(/\/$/, ''), log: () => out + err}); }
    });
    p.on('exit', (code) => { clearTimeout(timer); reject(new Error(`serve exited (${code}):\n${out}${err}`)); });
  });
}

// An agent's call through `toolguard check --server`: {done, exited()}; done resolves with the
// exit status, the output and the decision JSON it printed.
function agentCall(call, {wait = 30} = {}) {
  let exited = false;
  const done = run(['check', '--server', base, '--wait', String(wait)],
    {input: JSON.stringify(call), extraEnv: {TOOLGUARD_TOKEN: tokens.agent}})
    .then((r) => {
      exited = true;
      let decision = null;
      try { decision = JSON.parse(r.stdout); } catch (e) { /* asserted by the caller */ }
      return {...r, decision};
    });
  return {done, exited: () => exited};
}

function bash(command, cwd) {
  return {tool: 'Bash', args: {command}, context: {cwd}};
}

async function workDir(name) {
  const dir = path.join(tmp, 'work', name);
  await mkdir(dir, {recursive: true});
  return dir;
}

// The API as an approver sees it (Bearer token), to learn an ask's id.
async function apiGet(p) {
  const r = await fetch(base + p, {headers: {Authorization: 'Bearer ' + tokens.alice}});
  assert.equal(r.status, 200, `GET ${p}: ${r.status}`);
  return r.json();
}

async function findAsk(pred, what, timeoutMs = 15000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const list = await apiGet('/v1/asks?state=pending');
    const found = list.find(pred);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no pending ask ${what} within ${timeoutMs} ms`);
}
const inDir = (cwd) => (a) => a && a.call && a.call.context && a.call.context.cwd === cwd;

// ---------------------------------------------------------------- the browser

// A fresh browser context signed in with `token`: {context, page, problems, dialogs}.
// Runs `body` with a signed-in page, closing its browser context after.
async function withSignIn(token, options, body) {
  if (typeof options === 'function') [options, body] = [{}, options];
  const s = await signIn(token, options);
  try {
    return await body(s);
  } finally {
    await s.context.close();
  }
}

async function signIn(token, {viewport = {width: 1200, height: 900}} = {}) {
  const context = await browser.newContext({viewport});
  const page = await context.newPage();
  const problems = [];
  const dialogs = [];
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push('console: ' + m.text());
  });
  page.on('dialog', (d) => { dialogs.push(d.type() + ': ' + d.message()); d.dismiss().catch(() => {}); });
  await page.goto(base + '/');
  await page.getByTestId('signin-token').fill(token);
  await page.getByTestId('signin-submit').click();
  await page.getByTestId('signout').waitFor({state: 'visible', timeout: 10000});
  return {context, page, problems, dialogs};
}

function card(page, id) {
  return page.locator(`[data-testid="ask"][data-ask-id="${id}"]`);
}

async function text(locator) {
  return (await locator.textContent()) ?? '';
}

// Deny an ask from its card; the waiting check must report a person's denial (not an expiry).
async function denyFromCard(c, call, answeredBy) {
  await c.getByTestId('deny-open').click();
  await c.getByTestId('deny-confirm').click();
  await c.waitFor({state: 'detached', timeout: 5000});
  const r = await call.done;
  assert.equal(r.decision?.verdict, 'deny', `check printed ${r.stdout}${r.stderr}`);
  assert.match(r.decision.reason, new RegExp(answeredBy), `a person denied it: ${r.decision.reason}`);
  assert.equal(r.decision.approval?.person, answeredBy, `check printed ${r.stdout}`);
}

function assertClean(s) {
  assert.deepEqual(s.problems, [], 'no script errors or CSP violations on the page');
  assert.deepEqual(s.dialogs, [], 'no dialogs');
}

// ---------------------------------------------------------------- set-up

before(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'toolguard-browser-'));
  env = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('TOOLGUARD_')) env[k] = v;
  Object.assign(env, {
    HOME: path.join(tmp, 'home'),
    TOOLGUARD_HOME: path.join(tmp, 'home', '.toolguard'),
    TOOLGUARD_CONFIG_DIR: path.join(tmp, 'user'),
    TOOLGUARD_MANAGED_DIR: path.join(tmp, 'managed'),
  });
  for (const d of [env.TOOLGUARD_HOME, env.TOOLGUARD_CONFIG_DIR, env.TOOLGUARD_MANAGED_DIR]) await mkdir(d, {recursive: true});
  tokens.agent = await addToken('agent', names.agent);
  tokens.alice = await addToken('approver', names.alice);
  tokens.bob = await addToken('approver', names.bob);
  server = await startServer();
  base = server.url;
  browser = await chromium.launch({executablePath: CHROMIUM, args: ['--no-sandbox']});
});

after(async () => {
  if (browser) await browser.close().catch(() => {});
  for (const p of children) p.kill('SIGKILL');
  if (server) {
    const exited = new Promise((r) => server.proc.once('exit', r));
    server.proc.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (server.proc.exitCode === null && server.proc.signalCode === null) server.proc.kill('SIGKILL');
  }
  if (tmp) await rm(tmp, {recursive: true, force: true});
});

// ---------------------------------------------------------------- tests

test('the page is served with its CSP and weighs under 100 KB', T, async () => {
  let total = 0;
  for (const [p, type] of [['/', /^text\/html/], ['/ui/app.js', /javascript/], ['/ui/app.css', /^text\/css/]]) {
    const r = await fetch(base + p);
    assert.equal(r.status, 200, `GET ${p}`);
    assert.match(r.headers.get('content-type') || '', type, `${p} content type`);
    assert.equal(r.headers.get('content-security-policy'), CSP, `${p} CSP`);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(r.headers.get('x-frame-options'), 'DENY');
    total += (await r.arrayBuffer()).byteLength;
  }
  assert.ok(total < 100 * 1024, `the page weighs ${total} bytes`);
});

test('sign-in refuses an unknown and an agent token; an approver signs in and out', T, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(base + '/');
    await page.getByTestId('signin-token').fill('tg_not_a_real_token_at_all_0000000000');
    await page.getByTestId('signin-submit').click();
    await page.getByTestId('signin-error').waitFor({state: 'visible'});
    await page.getByTestId('signin-token').fill(tokens.agent);
    await page.getByTestId('signin-submit').click();
    await page.waitForFunction(() => /agent/i.test(document.querySelector('[data-testid="signin-error"]').textContent));
    assert.equal(await page.getByTestId('signout').isVisible(), false);

    // An approver signs in (the header names her), reloads (still signed in), signs out.
    await page.getByTestId('signin-token').fill(tokens.bob);
    await page.getByTestId('signin-submit').click();
    await page.getByTestId('signout').waitFor({state: 'visible'});
    assert.equal((await text(page.getByTestId('who-name'))).trim(), names.bob);
    assert.equal((await text(page.getByTestId('who-role'))).trim(), 'approver');
    await page.reload();
    await page.getByTestId('signout').waitFor({state: 'visible'});
    await page.getByTestId('signout').click();
    await page.getByTestId('signin-token').waitFor({state: 'visible'});
    assert.equal(await page.evaluate(async () => (await fetch('/ui/session')).status), 401, 'the session is gone');
  } finally {
    await context.close();
  }
});

test('an ask appears without reload, shows the call, and allow once lets the check through', T, async () => {
  await withSignIn(tokens.alice, async (s) => {
    const {page} = s;
    assert.equal((await text(page.getByTestId('who-name'))).trim(), names.alice);
    if (FILE_STORE) await page.getByTestId('queue-empty').waitFor({state: 'visible'});
    await page.evaluate(() => { window.__marker = 'same page'; });
    let navigations = 0;
    page.on('framenavigated', (f) => { if (f === page.mainFrame()) navigations++; });

    const cwd = await workDir('allow-once');
    const call = agentCall(bash('git push origin main', cwd));
    const ask = await findAsk(inDir(cwd), 'from the allow-once call');
    const c = card(page, ask.id);
    await c.waitFor({state: 'visible', timeout: 10000});
    assert.equal(await page.evaluate(() => window.__marker), 'same page', 'the page did not reload');
    assert.equal(navigations, 0, 'the page did not navigate');
    if (FILE_STORE) assert.equal(await page.getByTestId('queue-empty').isVisible(), false);

    assert.equal((await text(c.getByTestId('ask-tool'))).trim(), 'Bash');
    assert.equal((await text(c.getByTestId('ask-agent'))).trim(), names.agent);
    assert.equal((await text(c.getByTestId('ask-cwd'))).trim(), cwd);
    await c.getByTestId('ask-machine').waitFor();
    assert.equal((await text(c.getByTestId('ask-machine-unverified'))).trim(), 'unverified', 'the machine is labelled as the client sent it');
    assert.match(await text(c.getByTestId('ask-peer')), /127\.0\.0\.1/, 'the peer address is shown');
    assert.equal((await text(c.getByTestId('ask-command'))).trim(), 'git push origin main');
    const simple = await text(c.getByTestId('ask-commands'));
    assert.match(simple, /git push origin main/);
    assert.match(simple, /shell-unknown-command/);
    assert.match(simple, /unsure shell-unknown-command/, 'the rule that cannot decide alone says so in plain words');
    const shown = await c.innerText();
    assert.doesNotMatch(shown, /escalat|\breported\b/i, `no policy jargon on the card: ${shown}`);
    assert.equal((await text(c.getByTestId('ask-rule'))).trim(), 'shell-unknown-command');
    assert.match(await text(c.getByTestId('ask-reason')), /git push/);
    assert.equal(await text(c.getByTestId('ask-tool-risk')), 'high risk, irreversible, shell');
    assert.match(await text(c.getByTestId('ask-left')), /\d+ (s|min)/);
    const waited = await text(c.getByTestId('ask-waited'));
    assert.match(waited, /\d+ s/);
    await page.waitForFunction(([id, before]) =>
      document.querySelector(`[data-ask-id="${id}"] [data-testid="ask-waited"]`).textContent !== before,
    [ask.id, waited], {timeout: 3000});

    await c.getByTestId('allow-once').click();
    const r = await call.done;
    assert.equal(r.decision?.verdict, 'allow', `check printed ${r.stdout}${r.stderr}`);
    // The decision the agent's check prints names who answered, and so does its audit record.
    assert.equal(r.decision.approval?.person, names.alice, `check printed ${r.stdout}`);
    assert.equal(r.decision.approval?.outcome, 'allow-once');
    assert.match(r.decision.resolution, new RegExp(`allowed once by ${names.alice} through serve$`), r.stdout);
    const audited = (await apiGet('/v1/audit?since=1h&tool=Bash')).find((rec) => rec.id === r.decision.id);
    assert.ok(audited, `the decision ${r.decision.id} is in the audit`);
    assert.equal(audited.approval?.person, names.alice, JSON.stringify(audited));
    await c.waitFor({state: 'detached', timeout: 5000});
    if (FILE_STORE) await page.getByTestId('queue-empty').waitFor({state: 'visible'});
    assertClean(s);
  });
});

test('always allow with a command pattern: the next matching call is allowed, listed, revocable', T, async () => {
  await withSignIn(tokens.alice, async (s) => {
    const {page} = s;
    const cwd = await workDir('always');
    const call = agentCall(bash('git push origin main', cwd));
    const ask = await findAsk(inDir(cwd), 'from the always call');
    let index = ask.offer.bindings.findIndex((b) => b.binding === 'pattern');
    if (index < 0) index = ask.offer.bindings.findIndex((b) => /matching/.test(b.description || ''));
    assert.ok(index >= 0, `a command pattern is offered: ${JSON.stringify(ask.offer)}`);
    const pattern = ask.offer.bindings[index].value;
    assert.ok(ask.offer.scopes.includes('project'), `project scope offered: ${JSON.stringify(ask.offer)}`);

    const c = card(page, ask.id);
    await c.waitFor({state: 'visible', timeout: 10000});
    await c.getByTestId('always-open').click();
    await c.getByTestId('always-binding').selectOption(String(index));
    await c.getByTestId('always-scope').selectOption('project');
    await c.getByTestId('always-confirm').click();
    const r = await call.done;
    assert.equal(r.decision?.verdict, 'allow', `check printed ${r.stdout}${r.stderr}`);
    await c.waitFor({state: 'detached', timeout: 5000});

    const next = await agentCall(bash('git push origin dev', cwd), {wait: 0}).done;
    assert.equal(next.decision?.verdict, 'allow', `the matching call: ${next.stdout}${next.stderr}`);
    assert.equal((await apiGet('/v1/asks?state=pending')).filter(inDir(cwd)).length, 0, 'no ask for the matching call');

    await page.getByTestId('tab-approvals').click();
    const row = page.getByTestId('approval-row').filter({hasText: pattern}).filter({hasText: cwd});
    await row.waitFor({state: 'visible', timeout: 5000});
    assert.equal(await row.count(), 1);
    await row.getByTestId('approval-revoke').click();
    await row.waitFor({state: 'detached', timeout: 5000});

    const again = await agentCall(bash('git push origin dev', cwd), {wait: 0}).done;
    assert.equal(again.decision?.verdict, 'ask', `after the revoke the call asks again: ${again.stdout}${again.stderr}`);
    assertClean(s);
  });
});

test('deny with a note: the check denies and its reason carries the note', T, async () => {
  await withSignIn(tokens.alice, async (s) => {
    const {page} = s;
    const cwd = await workDir('deny');
    const call = agentCall(bash('git push origin main', cwd));
    const ask = await findAsk(inDir(cwd), 'from the deny call');
    const c = card(page, ask.id);
    await c.waitFor({state: 'visible', timeout: 10000});
    await c.getByTestId('deny-open').click();
    await c.getByTestId('deny-note').fill('use the staging branch');
    await c.getByTestId('deny-confirm').click();
    const r = await call.done;
    assert.equal(r.decision?.verdict, 'deny', `check printed ${r.stdout}${r.stderr}`);
    assert.match(r.decision.reason, /use the staging branch/);
    await c.waitFor({state: 'detached', timeout: 5000});

    // The history shows it, filtered to this agent's denials.
    await page.getByTestId('tab-history').click();
    await page.getByTestId('history-agent').fill(names.agent);
    await page.getByTestId('history-verdict').selectOption('deny');
    await page.getByTestId('history-since').selectOption('1h');
    await page.getByTestId('history-apply').click();
    await page.locator('[data-testid="history"][data-query*="verdict=deny"]').waitFor({state: 'attached', timeout: 5000});
    const row = page.getByTestId('history-row').filter({hasText: 'use the staging branch'}).first();
    await row.waitFor({state: 'visible', timeout: 5000});
    const verdicts = await page.locator('[data-testid="history-row"] td[data-label="Verdict"]').allTextContents();
    assert.ok(verdicts.length > 0 && verdicts.every((v) => v.trim() === 'deny'), `only denials: ${JSON.stringify(verdicts)}`);
    assertClean(s);
  });
});

test('two approvers answer the same ask: the first wins, the second sees who answered', T, async () => {
  const alice = await signIn(tokens.alice);
  const bob = await signIn(tokens.bob);
  try {
    const cwd = await workDir('race');
    const call = agentCall(bash('git push origin main', cwd));
    const ask = await findAsk(inDir(cwd), 'from the race call');
    const ca = card(alice.page, ask.id);
    const cb = card(bob.page, ask.id);
    await ca.waitFor({state: 'visible', timeout: 10000});
    await cb.waitFor({state: 'visible', timeout: 10000});

    // Bob clicks first, but his answer is held on its way until Alice's has been taken.
    let release;
    const gate = new Promise((r) => { release = r; });
    await bob.page.route('**/v1/asks/*/answer', async (route) => { await gate; await route.continue(); });
    const bobSent = bob.page.waitForRequest((q) => q.url().includes('/answer'));
    await cb.getByTestId('allow-once').click();
    await bobSent;
    await ca.getByTestId('allow-once').click();
    await ca.waitFor({state: 'detached', timeout: 5000});
    release();

    const err = cb.getByTestId('ask-error');
    await err.waitFor({state: 'visible', timeout: 5000});
    const message = await text(err);
    assert.match(message, new RegExp(names.alice), `bob is told who answered: ${message}`);
    assert.match(message, /once|allow/i, `bob is told what: ${message}`);
    const r = await call.done;
    assert.equal(r.decision?.verdict, 'allow', `check printed ${r.stdout}${r.stderr}`);
    // The card leaves Bob's page a little later.
    await cb.waitFor({state: 'detached', timeout: 15000});
    assertClean(alice);
    assertClean(bob);
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
});

test('HTML, terminal escapes and bidi controls in a call are shown as text and run nothing', T, async () => {
  await withSignIn(tokens.alice, async (s) => {
    const {page} = s;
    const cwd = await workDir('xss');
    // The last word is the literal text backslash-u-202e, not the character.
    const payload = "git push origin '<img src=x onerror=alert(1)>' \u001b[31mred\u001b[0m \u202eevil 'lit\\u202e'";
    const call = agentCall(bash(payload, cwd));
    const ask = await findAsk(inDir(cwd), 'from the XSS call');
    const c = card(page, ask.id);
    await c.waitFor({state: 'visible', timeout: 10000});
    await page.waitForTimeout(300);   // an onerror would have fired by now

    const command = c.getByTestId('ask-command');
    const shown = await text(command);
    assert.ok(shown.includes('<img src=x onerror=alert(1)>'), `the markup is shown as text: ${shown}`);
    assert.ok(!shown.includes('\u001b') && !shown.includes('\u202e'), 'no raw escape or bidi control in the text');
    const marks = await command.locator('span.esc').allTextContents();
    assert.ok(marks.includes('\\x1b'), `ESC shown visibly: ${JSON.stringify(marks)}`);
    assert.ok(marks.includes('\\u202e'), `the bidi override shown visibly: ${JSON.stringify(marks)}`);
    assert.equal(marks.filter((m) => m === '\\u202e').length, 1, `one mark for one real U+202E: ${JSON.stringify(marks)}`);
    assert.ok(shown.includes("'lit\\\\u202e'"), `a literal backslash is shown doubled: ${shown}`);
    const whole = await text(c);
    assert.ok(!whole.includes('\u001b') && !whole.includes('\u202e'), 'nowhere on the card raw');
    assert.equal(await c.locator('img').count(), 0, 'no img element in the card');
    assert.equal(await page.locator('img').count(), 0, 'no img element on the page');
    assert.deepEqual(s.dialogs, [], 'no alert ran');

    await denyFromCard(c, call, names.alice);
    assertClean(s);
  });
});

test('an answer without the CSRF header or without the cookie is refused', T, async () => {
  await withSignIn(tokens.alice, async (s) => {
    const {page, context} = s;
    const cwd = await workDir('csrf');
    const call = agentCall(bash('git push origin main', cwd));
    const ask = await findAsk(inDir(cwd), 'from the CSRF call');
    const c = card(page, ask.id);
    await c.waitFor({state: 'visible', timeout: 10000});

    const cookies = await context.cookies(base);
    const session = cookies.find((k) => k.name === 'toolguard_session');
    assert.ok(session, `a session cookie: ${JSON.stringify(cookies.map((k) => k.name))}`);
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, 'Strict');
    assert.ok(!(await page.evaluate(() => document.cookie)).includes('toolguard_session'), 'the page cannot read the cookie');

    const fromPage = await page.evaluate(async (id) => {
      const answer = JSON.stringify({answer: 'allow_once'});
      const noHeader = await fetch(`/v1/asks/${id}/answer`, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: answer});
      const wrong = await fetch(`/v1/asks/${id}/answer`, {method: 'POST', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': 'wrong'}, body: answer});
      return {noHeader: noHeader.status, noHeaderBody: await noHeader.text(), wrong: wrong.status};
    }, ask.id);
    assert.equal(fromPage.noHeader, 403, `no X-CSRF-Token: ${JSON.stringify(fromPage)}`);
    assert.match(fromPage.noHeaderBody, /csrf/i);
    assert.equal(fromPage.wrong, 403, `a wrong X-CSRF-Token: ${JSON.stringify(fromPage)}`);

    // The cookie without the header, from outside the page: still refused.
    const withCookie = await fetch(`${base}/v1/asks/${ask.id}/answer`, {
      method: 'POST', headers: {'Content-Type': 'application/json', Cookie: `toolguard_session=${session.value}`},
      body: JSON.stringify({answer: 'allow_once'})});
    assert.equal(withCookie.status, 403, 'the cookie alone');
    const noCookie = await fetch(`${base}/v1/asks/${ask.id}/answer`, {
      method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({answer: 'allow_once'})});
    assert.equal(noCookie.status, 401, 'neither cookie nor token');

    // The cookie does not yield the CSRF token: GET /ui/session names the session only (a page on
    // another port of this host gets the cookie), and a page holding only the cookie is signed out.
    const who = await fetch(`${base}/ui/session`, {headers: {Cookie: `toolguard_session=${session.value}`}});
    assert.equal(who.status, 200, 'the cookie is a session');
    const whoBody = await who.json();
    assert.equal(whoBody.name, names.alice);
    assert.ok(!('csrf' in whoBody), `GET /ui/session gives no CSRF token: ${JSON.stringify(whoBody)}`);
    const bare = await browser.newContext();
    try {
      await bare.addCookies([{name: session.name, value: session.value, url: base, httpOnly: true, sameSite: 'Strict'}]);
      const other = await bare.newPage();
      await other.goto(base + '/');
      await other.getByTestId('signin-token').waitFor({state: 'visible', timeout: 5000});
      assert.equal(await other.evaluate(async () => (await fetch('/ui/session')).status), 200, 'the cookie alone is a session');
      assert.equal(await other.getByTestId('signout').isVisible(), false, 'not signed in with the cookie alone');
      assert.equal(await other.locator('#view-queue').isVisible(), false, 'no queue with the cookie alone');
      assert.equal(await card(other, ask.id).count(), 0, 'no card with the cookie alone');
    } finally {
      await bare.close();
    }

    const still = await apiGet('/v1/asks/' + ask.id);
    assert.equal(still.state, 'pending', 'the ask is still pending');
    assert.equal(call.exited(), false, 'the check still waits');
    assert.ok(await c.isVisible(), 'the card is still there');

    // The page's token no longer matches (another page signed in since): an answer is refused and
    // the page asks to sign in again; the ask still waits.
    await page.evaluate(() => localStorage.setItem('toolguard.csrf', 'stale'));
    await c.getByTestId('allow-once').click();
    await page.getByTestId('signin-error').waitFor({state: 'visible', timeout: 5000});
    assert.match(await text(page.getByTestId('signin-error')), /sign in again/i);
    assert.equal(await page.evaluate(() => localStorage.getItem('toolguard.csrf')), null, 'the stale token is forgotten');
    assert.equal((await apiGet('/v1/asks/' + ask.id)).state, 'pending', 'the ask is still pending');
    await page.getByTestId('signin-token').fill(tokens.alice);
    await page.getByTestId('signin-submit').click();
    await c.waitFor({state: 'visible', timeout: 10000});

    await denyFromCard(c, call, names.alice);
    assertClean(s);
  });
});

test('the queue with two asks, on a laptop and on a phone (screenshots)', T, async () => {
  await withSignIn(tokens.alice, {viewport: {width: 1100, height: 900}}, async (s) => {
    const {page} = s;
    const cwd = await workDir('shop');
    const publish = agentCall(bash('git push origin release && npm publish', cwd), {wait: 300});
    const first = await findAsk(inDir(cwd), 'from the publish call');
    const write = agentCall({tool: 'Write', args: {file_path: '../../etc/hosts', content: '127.0.0.1 registry.npmjs.org\n'}, context: {cwd}}, {wait: 300});
    const second = await findAsk((a) => inDir(cwd)(a) && a.id !== first.id, 'from the write call');
    const c1 = card(page, first.id);
    const c2 = card(page, second.id);
    await c1.waitFor({state: 'visible', timeout: 10000});
    await c2.waitFor({state: 'visible', timeout: 10000});
    assert.equal(await c1.getByTestId('ask-simple').count(), 2, 'two simple commands');
    assert.match(await text(c1.getByTestId('ask-commands')), /npm publish/);
    await page.waitForTimeout(2100);   // let the clocks tick
    if (SHOTS) {
      await mkdir(SHOTS, {recursive: true});
      await page.screenshot({path: path.join(SHOTS, 'queue.png'), fullPage: true});
    }
    // One ask with "Always allow…" open: the bindings offered for it.
    await c1.getByTestId('always-open').click();
    const offered = await c1.getByTestId('always-binding').locator('option').allTextContents();
    assert.deepEqual(offered, first.offer.bindings.map((b) => b.description), 'the offered bindings, by description');
    const titles = await c1.getByTestId('always-binding').locator('option').evaluateAll((os) => os.map((o) => o.title));
    assert.deepEqual(titles, first.offer.bindings.map((b) => b.value), 'each option\'s tooltip is the value it grants');
    assert.equal((await text(c1.getByTestId('always-value'))).trim(), first.offer.bindings[0].value, 'the selected binding\'s value is shown');
    if (SHOTS) await c1.screenshot({path: path.join(SHOTS, 'ask.png')});

    // One column on a phone: nothing wider than the screen.
    await page.setViewportSize({width: 390, height: 844});
    await page.waitForTimeout(100);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no horizontal scrolling on a phone (${overflow} px too wide)`);

    await denyFromCard(c1, publish, names.alice);
    await denyFromCard(c2, write, names.alice);
    assertClean(s);
  });
});

test('a link to one ask (#ask=ID) scrolls to it and marks it; an answered one is said to be gone', T, async () => {
  await withSignIn(tokens.alice, {viewport: {width: 1000, height: 500}}, async (s) => {
    const {page, context} = s;
    const cwd = await workDir('link');
    const calls = [];
    const asks = [];
    for (const branch of ['one', 'two', 'three']) {
      calls.push(agentCall(bash('git push origin ' + branch, cwd)));
      asks.push(await findAsk((a) => inDir(cwd)(a) && !asks.some((b) => b.id === a.id), 'from the link call ' + branch));
    }
    const id = asks[2].id;
    for (const a of asks) await card(page, a.id).waitFor({state: 'visible', timeout: 10000});

    // The webhook's link opened in a new tab: the page loads on that ask.
    const linked = await context.newPage();
    linked.on('pageerror', (e) => s.problems.push('page error: ' + e.message));
    await linked.goto(`${base}/#ask=${encodeURIComponent(id)}`);
    const c = card(linked, id);
    await linked.locator(`[data-testid="ask"].target[data-ask-id="${id}"]`).waitFor({state: 'visible', timeout: 10000});
    assert.equal(await linked.locator('[data-testid="ask"].target').count(), 1, 'only that card is marked');
    const place = await c.evaluate((n) => {
      const r = n.getBoundingClientRect();
      return {top: r.top, bottom: r.bottom, height: innerHeight, scrolled: scrollY};
    });
    assert.ok(place.scrolled > 0, `the page scrolled: ${JSON.stringify(place)}`);
    assert.ok(place.top < place.height && place.bottom > 0, `the card is in view: ${JSON.stringify(place)}`);
    await linked.waitForFunction(() => location.hash === '#queue', null, {timeout: 3000});

    // Answered: a link to it says it is no longer waiting.
    await denyFromCard(c, calls[2], names.alice);
    await linked.close();
    // The first tab may still show the answered card (closed, kept a few seconds to say why)
    // or may not have heard yet: either way the link must say the ask is no longer waiting.
    await page.goto(`${base}/#ask=${encodeURIComponent(id)}`);
    await page.getByTestId('queue-note').waitFor({state: 'visible', timeout: 5000});
    assert.match(await text(page.getByTestId('queue-note')), /no longer waiting/);
    assert.match(await text(page.getByTestId('queue-note')), new RegExp(names.alice));

    await denyFromCard(card(page, asks[0].id), calls[0], names.alice);
    await denyFromCard(card(page, asks[1].id), calls[1], names.alice);
    assertClean(s);
  });
});

test("an ask from a program's own Guard is marked as its own account and its grants are spelled out", T, async () => {
  await withSignIn(tokens.alice, async (s) => {
    const {page} = s;
    const cwd = await workDir('remote');
    const posted = fetch(base + '/v1/asks', {
      method: 'POST',
      headers: {Authorization: 'Bearer ' + tokens.agent, 'Content-Type': 'application/json'},
      body: JSON.stringify({
        call: {tool: 'Bash', args: {command: 'git push origin main'}, context: {cwd}},
        decision: {verdict: 'ask', reason: 'read-only, harmless', rule: 'builtin.read-only'},
        offer: {bindings: [{binding: 'exact', value: '*', description: 'this exact call'}], scopes: ['global']},
        wait: 20,
      }),
    }).then(async (r) => ({status: r.status, body: await r.json()}));
    const ask = await findAsk(inDir(cwd), "from the program's own Guard");
    const c = card(page, ask.id);
    await c.waitFor({state: 'visible', timeout: 10000});
    const badge = c.getByTestId('ask-own-account');
    assert.ok(await badge.isVisible(), 'the badge is shown');
    assert.equal((await text(badge)).trim(), "the agent's own account, not checked here");
    assert.doesNotMatch(await c.innerText(), /escalat|\breported\b/i, 'no policy jargon on the card');
    assert.equal((await text(c.getByTestId('ask-rule'))).trim(), 'builtin.read-only');

    await c.getByTestId('always-open').click();
    const options = await c.getByTestId('always-binding').locator('option').allTextContents();
    assert.equal(options.length, 1);
    assert.ok(options[0].includes('this exact call') && options[0].includes('*'), `the option names its value: ${options[0]}`);
    assert.equal((await text(c.getByTestId('always-value'))).trim(), '*', 'what it grants is shown');

    await c.getByTestId('deny-open').click();
    await c.getByTestId('deny-note').fill('not on main');
    await c.getByTestId('deny-confirm').click();
    await c.waitFor({state: 'detached', timeout: 5000});
    const r = await posted;
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.id, ask.id);
    assert.equal(r.body.state, 'answered', JSON.stringify(r.body));
    assert.equal(r.body.answer?.answer, 'deny', JSON.stringify(r.body));
    assert.equal(r.body.answer?.note, 'not on main', JSON.stringify(r.body));
    assertClean(s);
  });
});

test('a long command is folded with its end in sight', T, async () => {
  await withSignIn(tokens.alice, async (s) => {
    const {page} = s;
    const cwd = await workDir('fold');
    const command = 'git push origin main --push-option=MIDDLEWORD' + 'x'.repeat(400) + ' --force-with-lease=TAILWORD';
    const call = agentCall(bash(command, cwd));
    const ask = await findAsk(inDir(cwd), 'from the long call');
    const c = card(page, ask.id);
    await c.waitFor({state: 'visible', timeout: 10000});
    const folded = await c.innerText();
    assert.ok(folded.includes('TAILWORD'), `the end is visible folded: ${folded}`);
    assert.ok(folded.includes('git push origin main'), 'the start is visible folded');
    assert.ok(!folded.includes('x'.repeat(300)), 'the middle is folded');
    assert.match(await text(c.getByTestId('fold-more').first()), /\d+ more characters/);
    await c.locator('summary').first().click();
    assert.equal((await text(c.getByTestId('ask-command'))).trim(), command);
    assert.ok(await c.getByTestId('ask-command').isVisible(), 'expanded');
    await denyFromCard(c, call, names.alice);
    assertClean(s);
  });
});

test('before sign-in the page logs nothing to the console and no request fails', T, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  page.on('requestfailed', (q) => problems.push(`request failed: ${q.url()}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`); });
  try {
    await page.goto(base + '/', {waitUntil: 'networkidle'});
    await page.getByTestId('signin-token').waitFor({state: 'visible'});
    await page.reload({waitUntil: 'networkidle'});
    await page.getByTestId('signin-token').waitFor({state: 'visible'});
    assert.deepEqual(problems, [], 'a clean console before sign-in');
  } finally {
    await context.close();
  }
});

// Every cell of the History view within its column, and the table within the page, measured.
async function historyFits(page) {
  return page.evaluate(() => {
    const table = document.getElementById('history-table');
    const box = table.parentElement;
    const overflowing = [...table.querySelectorAll('th, td')]
      .filter((c) => c.getClientRects().length && c.scrollWidth > c.clientWidth + 1)
      .map((c) => `${c.dataset.label || c.textContent.slice(0, 20)}: ${c.scrollWidth} > ${c.clientWidth}`);
    return {
      table: Math.ceil(table.getBoundingClientRect().width), box: box.clientWidth, boxScroll: box.scrollWidth,
      page: document.documentElement.scrollWidth, view: innerWidth, overflowing,
    };
  });
}

test("the History view's columns fit on a desktop, a narrow window and a phone (measured)", T, async () => {
  // Calls with long words: a long MCP tool name, a long unbroken path, a long command.
  const cwd = await workDir('history-widths');
  const tool = 'mcp__a_rather_long_server_name__create_or_update_file_contents_recursively';
  const calls = [
    {tool, args: {path: '/srv/' + 'nested-directory-name/'.repeat(8) + 'f'.repeat(90)}, context: {cwd}},
    bash('cat ' + 'a'.repeat(260) + ' && git push origin main', cwd),
    {tool: 'Write', args: {file_path: '/etc/' + 'y'.repeat(150), content: 'x'}, context: {cwd}},
  ];
  for (const call of calls) {
    const r = await run(['check', '--server', base], {input: JSON.stringify(call), extraEnv: {TOOLGUARD_TOKEN: tokens.agent}});
    assert.equal(r.code, 0, r.stderr);
  }
  await withSignIn(tokens.alice, {viewport: {width: 1280, height: 900}}, async (s) => {
    const {page} = s;
    await page.getByTestId('tab-history').click();
    await page.getByTestId('history-since').selectOption('1h');
    await page.getByTestId('history-apply').click();
    await page.getByTestId('history-row').filter({hasText: tool}).first().waitFor({state: 'visible', timeout: 5000});
    for (const viewport of [{width: 1280, height: 900}, {width: 1024, height: 768}, {width: 760, height: 900}, {width: 390, height: 844}]) {
      await page.setViewportSize(viewport);
      const m = await historyFits(page);
      const where = `at ${viewport.width} px: ${JSON.stringify(m)}`;
      assert.deepEqual(m.overflowing, [], `no cell overflows its column ${where}`);
      assert.ok(m.table <= m.box && m.boxScroll <= m.box, `the table fits its box ${where}`);
      assert.ok(m.page <= m.view, `the page does not scroll sideways ${where}`);
    }
    assertClean(s);
  });
});
