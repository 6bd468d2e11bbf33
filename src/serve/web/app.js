// toolguard serve: the approval queue page (issue 21). Plain ES2020, no framework, no build step.
// Security bar: every value from the server reaches the page through textContent (never as
// HTML), and invisible, control and bidi characters are shown as visible markers (span.esc).
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);

  const S = {
    session: null,      // {name, role}; the CSRF token is in localStorage (csrfKey)
    pollGen: 0,         // bumped to stop the running long poll loop
    pollAbort: null,
    cards: new Map(),   // ask id -> card record
    answered: new Map(),// ask id -> time we answered it here (hide it even if a stale list has it)
    view: 'queue',
    connected: null,
    loaded: false,      // the queue has been loaded once since signing in
    focus: null,        // {id, checked}: the ask #ask=ID points at, until it is found
  };

  // ---------------------------------------------------------------- the CSRF token
  // Only the sign-in answer carries it (GET /ui/session does not: the cookie is not scoped by
  // port, so a page on another port of this host gets the cookie, but not this origin's
  // localStorage). Without it the page is signed out, whatever the cookie says.

  const csrfKey = 'toolguard.csrf';
  let csrfMemory = '';   // only when localStorage is unavailable (then it lasts this page)
  function getCsrf() {
    try { return localStorage.getItem(csrfKey) || ''; } catch (e) { return csrfMemory; }
  }
  function setCsrf(v) {
    csrfMemory = v;
    try { if (v) localStorage.setItem(csrfKey, v); else localStorage.removeItem(csrfKey); } catch (e) { /* memory only */ }
  }

  // ---------------------------------------------------------------- visible text

  // The hidden characters: control, invisible and bidi. This table must equal
  // isInvisibleOrControl in src/core/unicode_text.cpp (the set the terminal prompt escapes);
  // tests/unit/web_page_escapes_test.cpp parses it and compares the two, so keep its literal
  // format: one `[0xLOW, 0xHIGH],` pair per line, inclusive, ascending, inside this array.
  const hiddenRanges = [
    [0x0000, 0x001F],
    [0x007F, 0x009F],
    [0x00AD, 0x00AD],
    [0x034F, 0x034F],
    [0x061C, 0x061C],
    [0x115F, 0x1160],
    [0x17B4, 0x17B5],
    [0x180B, 0x180F],
    [0x200B, 0x200F],
    [0x2028, 0x202E],
    [0x2060, 0x206F],
    [0x3164, 0x3164],
    [0xFE00, 0xFE0F],
    [0xFEFF, 0xFEFF],
    [0xFFA0, 0xFFA0],
    [0xFFF0, 0xFFFB],
    [0xFFFE, 0xFFFF],
    [0x1BCA0, 0x1BCA3],
    [0x1D173, 0x1D17A],
    [0xE0000, 0xE007F],
    [0xE0100, 0xE01EF],
  ];
  function isHidden(cp) {
    // A lone surrogate (JSON may carry one; UTF-8 cannot, so the C++ set has none): shown too.
    if (cp >= 0xD800 && cp <= 0xDFFF) return true;
    for (const [lo, hi] of hiddenRanges) {
      if (cp < lo) return false;
      if (cp <= hi) return true;
    }
    return false;
  }
  function hex(cp, width) { return cp.toString(16).padStart(width, '0'); }
  // As terminalSafe (src/approval/terminal_safe.cpp) writes them.
  function escName(cp) {
    if (cp === 0x09) return '\\t';
    if (cp === 0x0d) return '\\r';
    if (cp < 0x80) return '\\x' + hex(cp, 2);
    if (cp <= 0xffff) return '\\u' + hex(cp, 4);
    return '\\U' + hex(cp, 8);
  }

  // A string as text, for places that cannot hold elements (option labels, titles). A literal
  // backslash is doubled, so every single backslash shown starts an escape: the text `\u202e`
  // typed into an argument reads `\\u202e`, never like the mark of a real U+202E.
  function flat(value) {
    let out = '';
    for (const ch of String(value)) {
      const cp = ch.codePointAt(0);
      out += cp === 0x5c ? '\\\\' : cp === 0x0a ? '\\n' : isHidden(cp) ? escName(cp) : ch;
    }
    return out;
  }

  // flat(), at most about `max` characters: the head and the tail, the middle marked as left out.
  function short(value, max) {
    const chars = Array.from(flat(value));
    if (chars.length <= max) return chars.join('');
    const head = Math.ceil(max * 0.6), tail = Math.floor(max * 0.3);
    return chars.slice(0, head).join('') + ` …(${chars.length - head - tail} more)… ` + chars.slice(chars.length - tail).join('');
  }

  // A string as a fragment: ordinary text as text nodes, each hidden code point as a marked span.
  function vis(value) {
    const frag = document.createDocumentFragment();
    let run = '';
    const flush = () => { if (run) { frag.appendChild(document.createTextNode(run)); run = ''; } };
    for (const ch of String(value)) {
      const cp = ch.codePointAt(0);
      if (cp === 0x0a) {
        flush();
        frag.appendChild(escSpan('\\n', 'line break', 'esc nl'));
        run = '\n';
      } else if (isHidden(cp)) {
        flush();
        frag.appendChild(escSpan(escName(cp), 'hidden character U+' + hex(cp, 4).toUpperCase()));
      } else if (cp === 0x5c) {
        run += '\\\\';   // a literal backslash, doubled (see flat)
      } else {
        run += ch;
      }
    }
    flush();
    return frag;
  }
  function escSpan(text, title, cls) {
    const s = document.createElement('span');
    s.className = cls || 'esc';
    s.textContent = text;
    s.title = title;
    return s;
  }

  // el('div', {class: 'x', testid: 'y', ...attributes}, child, ...): strings become vis() text.
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    if (attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (v === undefined || v === null || v === false) continue;
        if (k === 'class') node.className = v;
        else if (k === 'testid') node.setAttribute('data-testid', v);
        else if (k === 'title') node.title = flat(v);
        else if (k === 'hidden') node.hidden = true;
        else if (k === 'value') node.value = v;
        else node.setAttribute(k, v === true ? '' : String(v));
      }
    }
    for (const c of children) add(node, c);
    return node;
  }
  function add(node, c) {
    if (c === undefined || c === null || c === false) return;
    if (Array.isArray(c)) { for (const x of c) add(node, x); return; }
    node.appendChild(c instanceof Node ? c : vis(c));
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function setText(node, value) { clear(node); node.appendChild(vis(value)); }

  // Long values (> 300 characters or > 6 lines) folded behind a <details> whose summary shows
  // the head (120 characters, at most 3 lines) and the tail (60, at most 2 lines) with the
  // size of the middle between: the end of a long command is never out of sight.
  function folded(value, cls, testid) {
    const text = String(value);
    const body = el('span', {class: 'v ' + (cls || ''), testid}, text);
    const lines = text.split('\n').length;
    if (text.length <= 300 && lines <= 6) return body;
    const chars = Array.from(text);   // code points: never half a surrogate pair
    let headEnd = Math.min(120, chars.length);
    for (let i = 0, n = 0; i < headEnd; i++) if (chars[i] === '\n' && ++n === 3) { headEnd = i + 1; break; }
    let tailStart = Math.max(headEnd, chars.length - 60);
    for (let i = chars.length - 1, n = 0; i >= tailStart; i--) if (chars[i] === '\n' && ++n === 2) { tailStart = i + 1; break; }
    if (tailStart <= headEnd) return body;
    const middle = chars.slice(headEnd, tailStart);
    const cut = middle.filter((c) => c === '\n').length;
    const cc = cls ? ' ' + cls : '';
    return el('details', {class: 'fold'},
      el('summary', {title: 'show all of it'},
        el('span', {class: 'v head' + cc}, chars.slice(0, headEnd).join('')),
        el('span', {class: 'more', testid: 'fold-more'},
          ` … ${middle.length} more character${middle.length === 1 ? '' : 's'}${cut ? `, ${cut} line break${cut === 1 ? '' : 's'}` : ''} … `),
        el('span', {class: 'v tail' + cc}, chars.slice(tailStart).join('')),
        el('span', {class: 'less'}, `fold up (${chars.length} characters)`)),
      body);
  }

  // ---------------------------------------------------------------- time

  function dur(ms) {
    let s = Math.max(0, Math.floor(ms / 1000));
    if (s < 60) return s + ' s';
    let m = Math.floor(s / 60); s %= 60;
    if (m < 60) return m + ' min ' + s + ' s';
    const h = Math.floor(m / 60); m %= 60;
    if (h < 48) return h + ' h ' + m + ' min';
    return Math.floor(h / 24) + ' days';
  }
  function parseTime(t) { const v = Date.parse(t); return Number.isFinite(v) ? v : null; }
  function localTime(t) {
    const v = parseTime(t);
    if (v === null) return String(t ?? '');
    const d = new Date(v);
    const p = (n) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
  }

  // ---------------------------------------------------------------- HTTP

  class SignedOut extends Error {}
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  async function api(method, path, body, opts = {}) {
    const headers = Object.assign({Accept: 'application/json'}, opts.headers || {});
    const changes = method !== 'GET' && method !== 'HEAD';
    if (changes) headers['X-CSRF-Token'] = getCsrf();
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(path, {
      method, headers, credentials: 'same-origin', cache: 'no-store', redirect: 'error',
      body: body === undefined ? undefined : JSON.stringify(body), signal: opts.signal,
    });
    const text = await res.text();
    let data = null;
    if (text) { try { data = JSON.parse(text); } catch (e) { data = {error: text.slice(0, 300)}; } }
    if (res.status === 401 && !opts.allow401) {
      signedOut((data && data.error) ? 'Signed out: ' + data.error : 'Your session ended; sign in again.');
      throw new SignedOut('signed out');
    }
    // The session's CSRF token is not this page's (another tab or port signed in since, or it
    // was lost): sign in again here.
    if (res.status === 403 && changes && !opts.allow401 && data && /csrf/i.test(String(data.error))) {
      signedOut('This page\'s sign-in is no longer valid (' + String(data.error) + '); sign in again.');
      throw new SignedOut('csrf');
    }
    return {status: res.status, ok: res.ok, data, headers: res.headers};
  }
  function errText(r) {
    return (r.data && typeof r.data.error === 'string') ? r.data.error : 'HTTP ' + r.status;
  }

  // ---------------------------------------------------------------- session

  async function start() {
    wire();
    try {
      // Signed in only with this page's CSRF token too (kept from the sign-in): without one
      // there is no session to ask about (and no refused request in the console).
      const r = getCsrf() ? await api('GET', '/ui/session', undefined, {allow401: true}) : null;
      if (r && r.status === 200 && r.data) signedIn(r.data);
      else { setCsrf(''); showSignin(''); }
    } catch (e) {
      showSignin('The service cannot be reached: ' + e.message);
    }
    setInterval(tick, 1000);
  }

  function showSignin(message) {
    S.session = null;
    $('view-signin').hidden = false;
    for (const id of ['view-queue', 'view-history', 'view-approvals', 'tabs', 'who', 'signout', 'conn']) $(id).hidden = true;
    const err = $('signin-error');
    err.hidden = !message;
    setText(err, message || '');
    document.title = 'toolguard approvals';
    $('signin-token').focus();
  }

  function signedIn(session) {
    S.session = {name: session.name, role: session.role};
    setText($('who-name'), session.name || '?');
    setText($('who-role'), session.role || '');
    $('view-signin').hidden = true;
    for (const id of ['tabs', 'who', 'signout', 'conn']) $(id).hidden = false;
    S.loaded = false;
    const target = fromHash();
    S.focus = target.ask ? {id: target.ask, checked: false} : null;
    show(target.view);
    startPoll();
  }

  function signedOut(message) {
    setCsrf('');
    stopPoll();
    for (const c of S.cards.values()) c.node.remove();
    S.cards.clear();
    for (const id of ['history-body', 'approvals-list', 'approvals-errors']) clear($(id));
    $('queue-note').hidden = true;
    showSignin(message);
  }

  async function signin(ev) {
    ev.preventDefault();
    const input = $('signin-token');
    const token = input.value.trim();
    const btn = $('signin-submit');
    if (!token) return;
    btn.disabled = true;
    try {
      const r = await api('POST', '/ui/session', {token}, {allow401: true});
      if (r.status === 200 && r.data && typeof r.data.csrf === 'string' && r.data.csrf) {
        input.value = '';
        setCsrf(r.data.csrf);
        signedIn(r.data);
      } else if (r.status === 401) {
        showSignin('Unknown or revoked token. ' + errText(r));
      } else if (r.status === 403) {
        showSignin('This token may not sign in (only approver and admin tokens may). ' + errText(r));
      } else {
        showSignin('Sign-in failed: ' + errText(r));
      }
    } catch (e) {
      showSignin('Sign-in failed: ' + e.message);
    } finally {
      btn.disabled = false;
    }
  }

  async function signout() {
    try { await api('POST', '/ui/logout', {}); } catch (e) { /* signed out anyway */ }
    signedOut('');
  }

  // ---------------------------------------------------------------- views

  // The location's hash: a view (#queue, #history, #approvals) or one ask (#ask=ID, the
  // webhook's link), which is in the queue view.
  function fromHash() {
    const h = location.hash.replace(/^#/, '');
    if (h.startsWith('ask=')) {
      let id = h.slice(4);
      try { id = decodeURIComponent(id); } catch (e) { /* as it is */ }
      if (id) return {view: 'queue', ask: id};
    }
    return {view: ['queue', 'history', 'approvals'].includes(h) ? h : 'queue'};
  }

  function show(view) {
    S.view = view;
    if (view !== 'queue') S.focus = null;
    for (const v of ['queue', 'history', 'approvals']) {
      $('view-' + v).hidden = v !== view;
      $('tab-' + v).setAttribute('aria-selected', v === view ? 'true' : 'false');
      $('tab-' + v).classList.toggle('on', v === view);
    }
    // #ask=ID stays until that ask is found (it may arrive later).
    if (!S.focus && location.hash !== '#' + view) history.replaceState(null, '', '#' + view);
    if (view === 'queue') findFocus();
    if (view === 'history') loadHistory();
    if (view === 'approvals') loadApprovals();
  }

  function setConn(ok, why) {
    if (S.connected === ok && ok) return;
    S.connected = ok;
    const c = $('conn');
    c.classList.toggle('ok', ok);
    c.classList.toggle('bad', !ok);
    c.title = ok ? 'the queue updates live' : flat(why || '');
    setText($('conn-text'), ok ? 'live' : 'reconnecting…');
  }

  // ---------------------------------------------------------------- the queue (long poll)

  function startPoll() {
    stopPoll();
    const gen = ++S.pollGen;
    pollLoop(gen);
  }
  function stopPoll() {
    S.pollGen++;
    if (S.pollAbort) { S.pollAbort.abort(); S.pollAbort = null; }
  }

  async function pollLoop(gen) {
    let etag = null;
    while (gen === S.pollGen) {
      const ctl = new AbortController();
      S.pollAbort = ctl;
      const timer = setTimeout(() => ctl.abort(), 40000);
      try {
        const headers = {};
        let url = '/v1/asks?state=pending';
        if (etag) { url += '&wait=25'; headers['If-None-Match'] = etag; }
        const sent = Date.now();
        const r = await api('GET', url, undefined, {signal: ctl.signal, headers});
        if (gen !== S.pollGen) return;
        if (r.status === 200 && Array.isArray(r.data)) {
          etag = r.headers.get('ETag');
          setConn(true);
          renderQueue(r.data);
          S.loaded = true;
          findFocus();
          if (!etag) await sleep(2000);   // a server without ETags: poll plainly
        } else if (r.status === 304) {
          setConn(true);
          // Unchanged at once: the service had no waiting place for this poll (it holds only so
          // many); poll plainly for a while rather than at once again.
          if (Date.now() - sent < 1000) await sleep(2000);
        } else {
          throw new Error(errText(r));
        }
      } catch (e) {
        if (e instanceof SignedOut || gen !== S.pollGen) return;
        setConn(false, e.message);
        etag = null;
        await sleep(2000);
      } finally {
        clearTimeout(timer);
      }
    }
  }

  function renderQueue(list) {
    const now = Date.now();
    for (const [id, t] of S.answered) if (now - t > 60000) S.answered.delete(id);
    const live = new Set();
    const queue = $('queue');
    for (const ask of list) {
      if (!ask || typeof ask.id !== 'string' || S.answered.has(ask.id)) continue;
      live.add(ask.id);
      const known = S.cards.get(ask.id);
      if (known) { known.ask = ask; continue; }
      const card = buildCard(ask);
      S.cards.set(ask.id, card);
      queue.appendChild(card.node);
    }
    for (const [id, card] of S.cards) {
      if (live.has(id)) continue;
      if (card.busy || card.keepUntil > now) { closeCard(card); continue; }
      // The card a link pointed at left the queue (answered elsewhere, expired): say why.
      if (card.node.classList.contains('target')) {
        S.focus = {id, checked: true};
        checkGone(S.focus);
      }
      dropCard(id);
    }
    updateCount();
  }

  // #ask=ID: once that ask is in the queue, scroll to it and mark it. Not there after a load, or
  // its card closed: ask the service about it once; answered or expired, say so (pending: it
  // may still come).
  function findFocus() {
    const f = S.focus;
    if (!f || S.view !== 'queue') return;
    const card = S.cards.get(f.id);
    if (card && !card.closed) {
      S.focus = null;
      for (const c of S.cards.values()) c.node.classList.remove('target');
      card.node.classList.add('target');
      card.node.scrollIntoView({block: 'center'});
      history.replaceState(null, '', '#queue');
      return;
    }
    // A closed card lingers only to show why it left: the link's ask is no longer waiting.
    if ((S.loaded || card) && !f.checked) {
      f.checked = true;
      checkGone(f);
    }
  }

  async function checkGone(f) {
    let r;
    try {
      r = await api('GET', '/v1/asks/' + encodeURIComponent(f.id));
    } catch (e) {
      return;
    }
    if (S.focus !== f) return;   // found meanwhile, or another link followed
    let msg = null;
    if (r.status === 404) {
      msg = `There is no ask ${f.id}.`;
    } else if (r.status === 200 && r.data && r.data.state && r.data.state !== 'pending') {
      const a = r.data.answer;
      msg = 'That ask is no longer waiting: ';
      if (a && typeof a === 'object') msg += `${a.by || 'someone'} ${answerWords[a.answer] || 'answered it'}.`;
      else msg += r.data.state === 'expired' ? 'it expired.' : 'it was ' + r.data.state + '.';
    }
    if (msg === null) return;
    S.focus = null;
    setText($('queue-note-text'), msg);
    $('queue-note').hidden = false;
    history.replaceState(null, '', '#queue');
  }

  function dropCard(id) {
    const card = S.cards.get(id);
    if (!card) return;
    card.node.remove();
    S.cards.delete(id);
    updateCount();
  }

  // The ask left the queue (someone else answered, it expired): the card stays a little while
  // only to show why; its buttons no longer do anything.
  function closeCard(card) {
    if (card.closed) return;
    card.closed = true;
    if (!card.keepUntil) card.keepUntil = Date.now() + 6000;
    card.node.classList.add('closed');
    for (const b of card.node.querySelectorAll('button, select, textarea')) b.disabled = true;
  }

  function updateCount() {
    let open = 0;
    for (const c of S.cards.values()) if (!c.closed) open++;
    $('queue-empty').hidden = S.cards.size > 0;
    setText($('queue-count'), open ? String(open) : '');
    document.title = (open ? '(' + open + ') ' : '') + 'toolguard approvals';
  }

  function tick() {
    const now = Date.now();
    for (const [id, card] of S.cards) {
      if (card.closed && !card.busy && card.keepUntil <= now) { dropCard(id); continue; }
      updateTimes(card, now);
    }
  }

  function updateTimes(card, now) {
    const created = parseTime(card.ask.created);
    const expires = parseTime(card.ask.expires);
    card.waited.textContent = created === null ? '?' : dur(now - created);
    if (expires === null) { card.left.textContent = '?'; return; }
    const left = expires - now;
    card.left.textContent = left > 0 ? dur(left) : 'expired';
    card.leftBox.classList.toggle('urgent', left < 60000);
  }

  const HOT = new Set(['ask', 'escalate', 'deny', 'abort']);
  // A rule's verdict in a person's words: "escalate" is the policy's term for
  // "this rule cannot decide alone".
  const verdictWords = new Map([['escalate', 'unsure'], ['abort', 'stop']]);
  const verdictTitles = new Map([
    ['escalate', 'this rule could not decide alone, so a person (or a configured model) decides'],
    ['abort', 'this rule stops the agent altogether'],
  ]);

  function findingList(findings) {
    if (!Array.isArray(findings) || !findings.length) return null;
    return el('ul', {class: 'findings'}, findings.map((f) => {
      const verdict = String((f && f.verdict) || '');
      return el('li', {class: HOT.has(verdict) ? 'hot' : ''},
        el('span', {class: 'verdict v-' + verdict.replace(/[^a-z]/g, ''), title: verdictTitles.get(verdict)},
          verdictWords.get(verdict) || verdict || '?'), ' ',
        el('span', {class: 'rule'}, String((f && f.rule) || '')),
        f && f.reason ? [' ', el('span', {class: 'reason'}, String(f.reason))] : null);
    }));
  }

  function str(v) { return typeof v === 'string' ? v : JSON.stringify(v, null, 2); }

  function buildCard(ask) {
    const call = (ask.call && typeof ask.call === 'object') ? ask.call : {};
    const ctx = (call.context && typeof call.context === 'object') ? call.context : {};
    const args = (call.args && typeof call.args === 'object') ? call.args : {};
    const decision = (ask.decision && typeof ask.decision === 'object') ? ask.decision : {};
    const detail = (decision.detail && typeof decision.detail === 'object') ? decision.detail : {};
    const offer = (ask.offer && typeof ask.offer === 'object') ? ask.offer : {};
    const card = {ask, busy: false, closed: false, keepUntil: 0};

    const machine = detail.machine || ctx.machine || '';
    const waited = el('span', {class: 'num', testid: 'ask-waited'});
    const left = el('span', {class: 'num', testid: 'ask-left'});
    const leftBox = el('span', {class: 'time'}, 'left ', left);
    card.waited = waited; card.left = left; card.leftBox = leftBox;

    const head = el('div', {class: 'card-head'},
      el('span', {class: 'tool', testid: 'ask-tool'}, String(call.tool || '?')),
      el('span', {class: 'meta'},
        el('span', {class: 'agent', testid: 'ask-agent'}, String(ask.agent || ctx.agent || '?')),
        ' on ',
        el('span', {class: 'machine' + (machine ? '' : ' unknown'), testid: 'ask-machine'}, machine ? String(machine) : 'unknown machine'),
        machine ? el('span', {class: 'tag', testid: 'ask-machine-unverified',
          title: 'the name the asking client sent; the service cannot check it'}, 'unverified') : null,
        detail.peer ? [' from ', el('span', {class: 'peer', testid: 'ask-peer',
          title: 'the network address the ask came from, as the service saw it'}, String(detail.peer))] : null),
      el('span', {class: 'times'}, el('span', {class: 'time'}, 'waited ', waited), leftBox));

    // An ask POSTed by a program's own Guard: its rule, reason and binding descriptions are
    // that program's account, not this service's judgement.
    const remote = offer.remember === false;
    const claim = remote ? el('span', {class: 'badge claim', testid: 'ask-own-account',
      title: 'this rule and reason are what the asking program says about its own call; the service did not decide them'},
    'the agent\'s own account, not checked here') : null;
    const facts = el('dl', {class: 'facts'},
      el('dt', null, 'cwd'), el('dd', null, el('span', {class: 'v path', testid: 'ask-cwd'}, String(ctx.cwd || '—'))),
      el('dt', null, 'rule'), el('dd', null, el('span', {class: 'rule', testid: 'ask-rule'}, String(decision.rule || offer.rule || '—')), claim),
      el('dt', null, 'reason'), el('dd', null, el('span', {class: 'v', testid: 'ask-reason'}, String(decision.reason || '—'))),
      // What the tool can do, as the policy knows it: how much is at stake.
      decision.tool_metadata && typeof decision.tool_metadata === 'object' ? [el('dt', null, 'tool'), el('dd', null,
        el('span', {class: 'v', testid: 'ask-tool-risk'},
          String(decision.tool_metadata.risk || '?') + ' risk, ' + String(decision.tool_metadata.side_effect || '?').replace('-', ' ') +
          (decision.tool_metadata.category ? ', ' + String(decision.tool_metadata.category) : '')))] : null);

    // The arguments: a shell command and its simple commands; paths; everything else.
    const argBox = el('div', {class: 'args'});
    const command = typeof detail.command === 'string' ? detail.command
      : typeof args.command === 'string' ? args.command : null;
    let commandKey = null;
    if (command !== null) {
      if (typeof args.command === 'string') commandKey = 'command';
      argBox.appendChild(el('div', {class: 'cmd'}, folded(command, 'code', 'ask-command')));
    }
    if (Array.isArray(detail.commands) && detail.commands.length) {
      argBox.appendChild(el('ol', {class: 'simple', testid: 'ask-commands'}, detail.commands.map((c, i) => {
        const f = (c && Array.isArray(c.findings)) ? c.findings : [];
        const hot = f.some((x) => x && HOT.has(String(x.verdict)));
        return el('li', {class: hot ? 'hot' : '', testid: 'ask-simple', 'data-index': String((c && c.index) || i + 1)},
          folded(String((c && c.text) || ''), 'code'), findingList(f));
      })));
    }
    if (Array.isArray(detail.paths) && detail.paths.length) {
      argBox.appendChild(el('ul', {class: 'paths', testid: 'ask-paths'}, detail.paths.map((p) => el('li', {class: p && p.inside_workspace === false ? 'hot' : ''},
        el('span', {class: 'field'}, String((p && p.field) || 'path')), ' ',
        el('span', {class: 'v code'}, String((p && p.raw) || '')),
        p && p.resolved && p.resolved !== p.raw ? [' → ', el('span', {class: 'v code'}, String(p.resolved))] : null,
        p && p.inside_workspace === false ? el('span', {class: 'badge warn'}, 'outside workspace') : null,
        p && p.refused ? el('span', {class: 'badge warn'}, 'refused: ' + String(p.refused)) : null))));
    }
    const rest = Object.entries(args).filter(([k]) => k !== commandKey);
    if (rest.length) {
      argBox.appendChild(el('dl', {class: 'argl', testid: 'ask-args'}, rest.map(([k, v]) => [
        el('dt', null, k), el('dd', null, folded(str(v), 'code'))])));
    }
    const whole = findingList(detail.findings);
    if (whole) argBox.appendChild(whole);

    // Actions.
    const bindings = Array.isArray(offer.bindings) ? offer.bindings : [];
    const scopes = Array.isArray(offer.scopes) ? offer.scopes.filter((s) => typeof s === 'string') : [];
    const allowOnce = el('button', {type: 'button', class: 'primary', testid: 'allow-once'}, 'Allow once');
    const alwaysOpen = el('button', {type: 'button', testid: 'always-open', 'aria-expanded': 'false'}, 'Always allow…');
    const denyOpen = el('button', {type: 'button', class: 'danger', testid: 'deny-open', 'aria-expanded': 'false'}, 'Deny…');
    if (!bindings.length || !scopes.length) { alwaysOpen.disabled = true; alwaysOpen.title = 'nothing to remember is offered for this call'; }

    // Each binding names what it grants: its value in the option's tooltip and below the
    // select (and, when the description is the asking program's own, in the option's label).
    const bindingValue = (b) => String((b && b.value) ?? '');
    const bindingSel = el('select', {testid: 'always-binding'}, bindings.map((b, i) => {
      const desc = String((b && (b.description || b.binding)) || 'binding ' + i);
      return el('option', {value: String(i), 'data-binding': String((b && b.binding) || ''), title: bindingValue(b)},
        remote ? short(desc, 60) + ' — ' + short(bindingValue(b), 80) : flat(desc));
    }));
    const grants = el('div', {class: 'grants', testid: 'always-grants'});
    const showGrant = () => {
      const b = bindings[Number(bindingSel.value)];
      clear(grants);
      add(grants, [el('span', {class: 'field'}, 'allows (' + String((b && b.binding) || '?') + '): '), folded(bindingValue(b), 'code', 'always-value')]);
    };
    bindingSel.addEventListener('change', showGrant);
    if (bindings.length) showGrant();
    const scopeLabel = {session: 'this session', project: 'this project (its directory)', agent: 'this agent', global: 'every agent'};
    const scopeSel = el('select', {testid: 'always-scope'}, scopes.map((s) => el('option', {value: s}, flat(scopeLabel[s] ? s + ': ' + scopeLabel[s] : s))));
    if (scopes.includes('project')) scopeSel.value = 'project';
    const alwaysConfirm = el('button', {type: 'button', class: 'primary', testid: 'always-confirm'}, 'Remember and allow');
    const alwaysPanel = el('div', {class: 'panel', testid: 'always-panel', hidden: true},
      el('label', null, 'Allow', bindingSel), el('label', null, 'for', scopeSel), alwaysConfirm, grants);

    const note = el('textarea', {testid: 'deny-note', rows: '2', maxlength: '2000', placeholder: 'A note the model will read (optional): why, and what to do instead'});
    const denyConfirm = el('button', {type: 'button', class: 'danger', testid: 'deny-confirm'}, 'Deny');
    const denyPanel = el('div', {class: 'panel', testid: 'deny-panel', hidden: true}, el('label', {class: 'grow'}, 'Note', note), denyConfirm);

    const error = el('p', {class: 'error', testid: 'ask-error', role: 'alert', hidden: true});

    const toggle = (panel, btn, other, otherBtn) => {
      panel.hidden = !panel.hidden;
      btn.setAttribute('aria-expanded', String(!panel.hidden));
      other.hidden = true;
      otherBtn.setAttribute('aria-expanded', 'false');
      if (!panel.hidden) (panel.querySelector('textarea, select') || btn).focus();
    };
    alwaysOpen.addEventListener('click', () => toggle(alwaysPanel, alwaysOpen, denyPanel, denyOpen));
    denyOpen.addEventListener('click', () => toggle(denyPanel, denyOpen, alwaysPanel, alwaysOpen));
    allowOnce.addEventListener('click', () => answer(card, {answer: 'allow_once'}));
    alwaysConfirm.addEventListener('click', () => answer(card, {answer: 'always', binding: Number(bindingSel.value), scope: scopeSel.value}));
    denyConfirm.addEventListener('click', () => {
      const body = {answer: 'deny'};
      if (note.value.trim()) body.note = note.value.trim();
      answer(card, body);
    });

    card.error = error;
    card.node = el('article', {class: 'card', testid: 'ask', 'data-ask-id': ask.id},
      head, facts, argBox,
      el('div', {class: 'actions'}, allowOnce, alwaysOpen, denyOpen),
      alwaysPanel, denyPanel, error);
    updateTimes(card, Date.now());
    return card;
  }

  const answerWords = {allow_once: 'allowed it once', always: 'always allowed it', deny: 'denied it'};

  async function answer(card, body) {
    if (card.busy || card.closed) return;
    card.busy = true;
    const buttons = card.node.querySelectorAll('button, select, textarea');
    for (const b of buttons) b.disabled = true;
    card.error.hidden = true;
    let keep = false;
    try {
      const r = await api('POST', '/v1/asks/' + encodeURIComponent(card.ask.id) + '/answer', body);
      if (r.status === 200) {
        S.answered.set(card.ask.id, Date.now());
        card.busy = false;
        dropCard(card.ask.id);
        return;
      }
      let msg = errText(r);
      if (r.status === 409 || r.status === 410) {  // answered first, expired, or its asker is gone
        const a = r.data && r.data.ask && r.data.ask.answer;
        if (a && typeof a === 'object') {
          const who = String(a.by || 'someone');
          let what = answerWords[a.answer] || String(a.answer || 'answered');
          if (a.answer === 'always' && (a.binding || a.scope)) what += ` (${[a.binding, a.scope].filter(Boolean).join(', ')})`;
          if (a.note) what += ` with the note “${a.note}”`;
          msg += `. ${who} ${what}.`;
        }
        card.keepUntil = Date.now() + 6000;
        closeCard(card);
        keep = true;
      }
      setText(card.error, msg.charAt(0).toUpperCase() + msg.slice(1));
      card.error.hidden = false;
    } catch (e) {
      if (e instanceof SignedOut) return;
      setText(card.error, 'Could not send the answer: ' + e.message);
      card.error.hidden = false;
    } finally {
      card.busy = false;
      if (!keep && !card.closed) for (const b of buttons) b.disabled = false;
    }
  }

  // ---------------------------------------------------------------- history

  let historySeq = 0;
  async function loadHistory(ev) {
    if (ev) ev.preventDefault();
    const seq = ++historySeq;
    const q = new URLSearchParams({last: '200', since: $('history-since').value || '24h'});
    const agent = $('history-agent').value.trim();
    const tool = $('history-tool').value.trim();
    const verdict = $('history-verdict').value;
    if (agent) q.set('agent', agent);
    if (tool) q.set('tool', tool);
    if (verdict) q.set('verdict', verdict);
    const status = $('history-status');
    setText(status, 'Loading…');
    let r;
    try {
      r = await api('GET', '/v1/audit?' + q.toString());
    } catch (e) {
      if (!(e instanceof SignedOut)) setText(status, 'Could not load the history: ' + e.message);
      return;
    }
    if (seq !== historySeq) return;
    const body = $('history-body');
    clear(body);
    body.removeAttribute('data-query');
    if (r.status !== 200 || !Array.isArray(r.data)) {
      setText(status, 'Could not load the history: ' + errText(r));
      return;
    }
    const rows = r.data.slice().reverse();
    setText(status, rows.length ? `${rows.length} record${rows.length === 1 ? '' : 's'}, newest first.` : 'No records match.');
    for (const rec of rows) body.appendChild(historyRow(rec));
    body.setAttribute('data-query', q.toString());
  }

  function historyRow(rec) {
    const o = (rec && typeof rec === 'object') ? rec : {};
    const ctx = (o.context && typeof o.context === 'object') ? o.context : {};
    const verdict = String(o.verdict || '');
    const args = (o.args && typeof o.args === 'object') ? o.args : null;
    const callText = typeof o.command === 'string' ? o.command
      : args && typeof args.command === 'string' ? args.command
        : args ? JSON.stringify(args) : typeof o.decided_on === 'string' ? o.decided_on : '';
    let why = String(o.reason || '');
    const a = o.answer && typeof o.answer === 'object' ? o.answer : null;
    if (a) {
      const what = answerWords[a.answer] || String(a.answer || 'answered');
      why = (a.by ? a.by + ' ' : '') + what
        + (a.binding || a.scope ? ` (${[a.binding, a.scope].filter(Boolean).join(', ')})` : '')
        + (a.note ? ` — “${a.note}”` : '') + (why ? '; ' + why : '');
    }
    if (!a && o.by) why = 'by ' + String(o.by) + (why ? ': ' + why : '');
    // What a tool returned that its user should know (an audit "tool-result").
    if (o.findings && typeof o.findings === 'object') {
      const found = [];
      if (o.findings.secret) {
        found.push('a credential (' + String(o.findings.secret) + ')' + (o.redacted ? ', redacted' : ''));
      }
      if (o.findings.instructions) {
        found.push('text aimed at the agent: “' + String(o.findings.instructions) + '”');
      }
      why = found.join('; ') + (why ? '; ' + why : '');
    }
    if (o.event) why = '[' + o.event + '] ' + why;
    const cell = (label, ...kids) => el('td', {'data-label': label}, ...kids);
    return el('tr', {testid: 'history-row'},
      cell('Time', el('span', {title: String(o.time || '')}, localTime(o.time))),
      cell('Agent', String(o.agent || ctx.agent || '')),
      cell('Tool', String(o.tool || '')),
      cell('Verdict', verdict ? el('span', {class: 'verdict v-' + verdict.replace(/[^a-z]/g, '')}, verdict) : null),
      cell('Rule', el('span', {class: 'rule'}, String(o.rule || ''))),
      cell('Call', folded(callText, 'code')),
      cell('Reason / answer', folded(why)));
  }

  // ---------------------------------------------------------------- approvals

  let approvalsSeq = 0;
  async function loadApprovals() {
    const seq = ++approvalsSeq;
    const status = $('approvals-status');
    setText(status, 'Loading…');
    let r;
    try {
      r = await api('GET', '/v1/approvals');
    } catch (e) {
      if (!(e instanceof SignedOut)) setText(status, 'Could not load the approvals: ' + e.message);
      return;
    }
    if (seq !== approvalsSeq) return;
    const list = $('approvals-list');
    const errors = $('approvals-errors');
    clear(list); clear(errors);
    if (r.status !== 200 || !r.data || typeof r.data !== 'object') {
      setText(status, 'Could not load the approvals: ' + errText(r));
      return;
    }
    const items = Array.isArray(r.data.approvals) ? r.data.approvals : [];
    for (const e of (Array.isArray(r.data.errors) ? r.data.errors : [])) errors.appendChild(el('li', {class: 'error'}, String(e)));
    setText(status, items.length ? `${items.length} remembered approval${items.length === 1 ? '' : 's'}.` : 'No approvals are remembered.');
    for (const a of items) list.appendChild(approvalRow(a));
  }

  function approvalRow(a) {
    const o = (a && typeof a === 'object') ? a : {};
    const revoke = el('button', {type: 'button', class: 'danger', testid: 'approval-revoke'}, 'Revoke');
    const error = el('p', {class: 'error', hidden: true});
    const scope = String(o.scope || '') + (o.scope_id ? ': ' : '');
    const row = el('li', {class: 'approval', testid: 'approval-row'},
      el('div', {class: 'ap-main'},
        el('span', {class: 'tool'}, String(o.tool || '?')), ' ',
        el('span', {class: 'binding'}, String(o.binding || '')), ' ',
        el('span', {class: 'v code', testid: 'approval-value'}, String(o.value ?? ''))),
      o.description ? el('div', {class: 'hint'}, String(o.description)) : null,
      el('div', {class: 'ap-meta'},
        el('span', null, 'for ', el('b', null, scope), o.scope_id ? el('span', {class: 'v path'}, String(o.scope_id)) : null),
        o.rule ? el('span', null, 'rule ', el('span', {class: 'rule'}, String(o.rule))) : null,
        o.created ? el('span', {title: String(o.created)}, localTime(o.created)) : null,
        o.note ? el('span', {class: 'ap-note'}, String(o.note)) : null),
      el('div', {class: 'actions'}, revoke), error);
    revoke.addEventListener('click', async () => {
      revoke.disabled = true;
      const body = {};
      for (const k of ['tool', 'binding', 'value', 'scope', 'scope_id', 'rule']) if (k in o) body[k] = o[k];
      try {
        const r = await api('POST', '/v1/approvals/revoke', body);
        if (r.status === 200) { row.remove(); loadApprovals(); return; }
        setText(error, 'Could not revoke: ' + errText(r));
      } catch (e) {
        if (e instanceof SignedOut) return;
        setText(error, 'Could not revoke: ' + e.message);
      }
      error.hidden = false;
      revoke.disabled = false;
    });
    return row;
  }

  // ---------------------------------------------------------------- wiring

  function wire() {
    $('signin-form').addEventListener('submit', signin);
    $('signout').addEventListener('click', signout);
    for (const b of $('tabs').querySelectorAll('button[data-view]')) b.addEventListener('click', () => show(b.dataset.view));
    $('history-form').addEventListener('submit', loadHistory);
    $('approvals-refresh').addEventListener('click', loadApprovals);
    window.addEventListener('hashchange', () => {
      if (!S.session) return;
      const target = fromHash();
      if (target.ask) {
        S.focus = {id: target.ask, checked: false};
        $('queue-note').hidden = true;
        show('queue');
      } else if (target.view !== S.view) {
        show(target.view);
      }
    });
    $('queue-note-close').addEventListener('click', () => { $('queue-note').hidden = true; });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
