// This tab's session on the server, and the events that reach it.
//
// Each tab plays its own game: a session the server makes (POST /api/session), whose id the
// page keeps in its URL (/?s=ID), so a reload or a copied link shows the same game. Every
// request names the session (s), the browser (c: a random id kept in localStorage) and the
// tab (t: a random id per page load).
//
// Events come over ONE connection per browser, however many tabs are open: the tabs elect
// a leader with the Web Locks API (the lock is held while the leader lives, and the next tab
// in line takes it when it closes); only the leader opens the EventSource
// /api/events?c=BROWSER, which carries the events of every session of this browser, and it
// passes each event on to the other tabs over a BroadcastChannel. A tab keeps the events of
// its own session. Without Web Locks or BroadcastChannel, each tab polls its state instead
// (no long-lived connection at all). Either way a tab asks for its state now and then, which
// also tells the server that the tab still shows the game.

const HEX32 = /^[0-9a-f]{32}$/;
const LOCK = 'ludus-events';
const POLL_MS = 2000;

function randomHex() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function browserId() {
  try {
    let id = localStorage.getItem('ludus-client');
    if (!HEX32.test(id ?? '')) {
      id = randomHex();
      localStorage.setItem('ludus-client', id);
    }
    return id;
  } catch {
    return randomHex();
  }
}

const client = browserId();
const tab = randomHex();
let session = null;

/** The session this tab shows (null before one is open). */
export function sessionId() { return session; }

/** `path` (it may have a query of its own) with this tab's session, browser and tab ids. */
export function api(path) {
  const query = new URLSearchParams({ c: client, t: tab });
  if (session) query.set('s', session);
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

/** A request the server refused or could not answer (`status` 0: no answer). */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function call(path, body, asText = false) {
  const init = body === undefined ? {} : {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  };
  let r;
  try {
    r = await fetch(api(path), init);
  } catch (e) {
    throw new ApiError(0, `cannot reach the server: ${e.message}`);
  }
  if (r.ok && asText) return r.text();
  const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new ApiError(r.status, data.error || `HTTP ${r.status}`);
  return data;
}

/** GETs (`body` undefined) or POSTs a JSON action of this session; the answer's JSON. */
export function request(path, body) { return call(path, body); }

/** GETs a text answer of this session (the export). */
export function requestText(path) { return call(path, undefined, true); }

function adopt(state) {
  session = state.session;
  const url = new URL(location.href);
  url.searchParams.set('s', session);
  history.replaceState(null, '', url);
  return state;
}

/**
 * Opens the session named in the URL, or a new one if there is none or the server no longer
 * knows it. Resolves to { state, note } (note: what to tell the person, or ''); rejects with
 * an ApiError when no session can be had (503: the server runs its most sessions).
 */
export async function openSession() {
  const named = new URLSearchParams(location.search).get('s');
  let note = '';
  if (named) {
    session = named;
    try {
      return { state: adopt(await request('/api/state')), note };
    } catch (e) {
      if (e.status !== 404) throw e;
      note = 'The game of this link has ended on the server (unused for a while, or the server '
        + 'restarted): a new game was started.';
    }
  }
  session = null;
  return { state: adopt(await request('/api/session', {})), note };
}

/**
 * After the server forgot this tab's session (a 404): starts a new session with the same
 * settings and position as `old` (the last state shown). Resolves to the new state.
 */
export async function reopenSession(old) {
  session = null;
  let state = adopt(await request('/api/session', {}));
  if (old) {
    const { game, options, mode, level, movetime } = old;
    state = await request('/api/new', { game, options, mode, level: level ?? undefined, movetime });
    if (old.moves.length || old.start !== 'startpos') {
      state = await request('/api/load', { text: old.position });
    }
  }
  return state;
}

/**
 * Delivers this session's events: on.state(state), on.info(info), on.review(progress), and
 * on.check() when the tab should ask for its state (the stream (re)opened, or now and then:
 * every `everyMs`).
 * Returns how events arrive: 'shared' (one stream per browser) or 'poll'.
 */
export function listen(on, everyMs) {
  const deliver = (msg) => {
    if (msg.name === 'check') { on.check(); return; }
    let data;
    try { data = JSON.parse(msg.data); } catch { return; }
    if (data.session === session) on[msg.name]?.(data);
  };
  const shared = typeof navigator.locks?.request === 'function'
    && typeof BroadcastChannel === 'function' && typeof EventSource === 'function';
  if (!shared) {
    setInterval(on.check, Math.min(POLL_MS, everyMs));
    return 'poll';
  }
  const channel = new BroadcastChannel('ludus-events');
  channel.onmessage = (e) => deliver(e.data);
  const pass = (msg) => { channel.postMessage(msg); deliver(msg); };
  navigator.locks.request(LOCK, () => {
    document.body.dataset.events = 'leader';
    const source = new EventSource(`/api/events?c=${client}`);
    source.addEventListener('open', () => pass({ name: 'check' }));
    for (const name of ['state', 'info', 'review']) {
      source.addEventListener(name, (e) => pass({ name, data: e.data }));
    }
    // Never settles: the lock is held until the tab closes.
    return new Promise(() => {});
  }).catch(() => {});
  setInterval(on.check, everyMs);
  return 'shared';
}

/** Tells the server when the tab goes away, so its session can end soon after. */
export function leaveOnClose() {
  addEventListener('pagehide', () => {
    if (!session) return;
    fetch(api('/api/leave'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
      keepalive: true,
    }).catch(() => {});
  });
}
