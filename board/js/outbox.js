// outbox.js: the judge's writes, kept in IndexedDB until the API has answered them.
//
// Every score a judge saves becomes an entry of the outbox (database "ranking-outbox",
// store "entries"): the lane's path, the body, the ETag the judge's tablet had of the
// lane (sent in If-Match) and an Idempotency-Key of its own (API.md, Part 3 "Safe
// retries"), kept with the entry.  The outbox sends its entries in the order they were
// made, one at a time, with that key: an answer lost on the way (the floor's Wi-Fi
// dropped after the server got the request) is asked again with the same key, and the
// API answers it again (Idempotent-Replayed: true) instead of writing twice.
//
// - 2xx: the entry is gone; the views are told ("sent").
// - network failure, 5xx, 429: the entry stays queued, and is sent again after a
//   backoff (1 s, 2 s, 4 s ... at most 30 s) or as soon as the browser says it is
//   online again ("online" event); while navigator.onLine is false nothing is tried.
// - 412 (another judge changed the lane since) or 409: a conflict, kept until the judge
//   resolves it: keep mine (sent again, with a new key and the lane's current ETag) or
//   take theirs (the entry is dropped).  Never overwritten, never dropped silently.
// - another 4xx (400 an invalid score, 403, 404, 422): "failed", kept with the API's
//   message until the judge dismisses it (a view that shows the lane may dismiss it
//   at once, since it shows the message beside the field).
// - 401: the session is over: the entry stays queued until the next login.
//
// A second save of a lane whose entry still waits replaces that entry (same If-Match,
// new key: the waiting one was never answered); one made while the lane's entry is on
// its way waits for it and takes the ETag of its answer.

import * as api from './api.js';

const DB_NAME = 'ranking-outbox';
const STORE = 'entries';
const MAX_DELAY = 30000;

function openDb() {
    return new Promise((resolve, reject) => {
        const req = indexedDB.open(DB_NAME, 1);
        req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'key' });
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
    });
}

function tx(db, mode, fn) {
    return new Promise((resolve, reject) => {
        const t = db.transaction(STORE, mode);
        const out = fn(t.objectStore(STORE));
        t.oncomplete = () => resolve(out && 'result' in out ? out.result : undefined);
        t.onerror = () => reject(t.error);
        t.onabort = () => reject(t.error);
    });
}

export function newKey() {
    if (crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    return [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
}

class Outbox extends EventTarget {
    constructor() {
        super();
        this.db = null;
        this.entries = new Map();     // key -> entry (a copy of what IndexedDB holds)
        this.flushing = false;
        this.again = false;
        this.timer = null;
        this.attempt = 0;             // failed attempts in a row (the backoff)
        this.nextAt = null;           // when the next attempt is due (ms), or null
        this.ready = null;
    }

    start() {
        if (!this.ready) {
            this.ready = (async () => {
                let all = [];
                try {
                    this.db = await openDb();
                    all = await tx(this.db, 'readonly', (s) => s.getAll());
                } catch {
                    this.db = null;   // no IndexedDB here: the entries live as long as the page
                }
                for (const e of all) {
                    if (e.state === 'sending') e.state = 'queued';   // a tab closed mid-send
                    this.entries.set(e.key, e);
                }
                window.addEventListener('online', () => { this.attempt = 0; this.flush(); });
                window.addEventListener('offline', () => this.emit('change'));
                this.emit('change');
                this.flush();
            })();
        }
        return this.ready;
    }

    emit(type, detail) {
        this.dispatchEvent(new CustomEvent(type, { detail }));
    }

    list() {
        return [...this.entries.values()].sort((a, b) => a.seq - b.seq);
    }

    async save(e) {
        this.entries.set(e.key, e);
        if (this.db) await tx(this.db, 'readwrite', (s) => s.put(e));
    }

    async remove(key) {
        this.entries.delete(key);
        if (this.db) await tx(this.db, 'readwrite', (s) => s.delete(key));
    }

    // A write to send: {path, body, ifMatch, lane: {id, number, team}, heat: {id,
    // number, wod}, competition}.  Answers the entry as stored.
    async add(w) {
        await this.start();
        const same = this.list().filter((e) => e.path === w.path);
        const sending = same.find((e) => e.state === 'sending');
        const e = { ...w, key: newKey(), seq: Date.now() + Math.random(), created: new Date().toISOString(),
                    state: 'queued', attempts: 0, message: null, theirs: null,
                    // after an entry on its way: its answer's ETag, when it comes
                    after: sending ? sending.key : null };
        for (const old of same) {
            if (old.state === 'sending') continue;
            if (!e.after && old.after) e.after = old.after;
            if (old.state === 'queued' || old.state === 'conflict') {
                e.ifMatch = old.ifMatch;
                e.seq = old.seq;
            }
            await this.remove(old.key);
        }
        await this.save(e);
        this.emit('change');
        this.flush();
        return e;
    }

    online() {
        return navigator.onLine !== false;
    }

    schedule() {
        clearTimeout(this.timer);
        const delay = Math.min(MAX_DELAY, 1000 * 2 ** Math.min(this.attempt - 1, 5)) * (0.8 + Math.random() * 0.4);
        this.nextAt = Date.now() + delay;
        this.timer = setTimeout(() => { this.nextAt = null; this.flush(); }, delay);
        this.emit('change');
    }

    // Sends what is queued, oldest first, until the list is done or the network fails.
    async flush() {
        await this.start();
        if (this.flushing) {
            this.again = true;
            return;
        }
        this.flushing = true;
        try {
            do {
                this.again = false;
                for (const e of this.list()) {
                    if (e.state !== 'queued' || (e.after && this.entries.has(e.after))) continue;
                    if (!this.online()) return;
                    if (!api.token()) return;
                    const r = await this.send(e);
                    if (r === 'stop') return;
                }
            } while (this.again);
            this.attempt = 0;
        } finally {
            this.flushing = false;
            this.emit('change');
        }
    }

    async send(e) {
        e.state = 'sending';
        e.attempts += 1;
        await this.save(e);
        this.emit('change');
        const headers = { 'Idempotency-Key': e.key };
        if (e.ifMatch) headers['If-Match'] = e.ifMatch;
        let res;
        try {
            res = await api.call(e.path, { method: 'PUT', body: e.body, headers });
        } catch (err) {
            return this.retry(e, `the network failed (${err.message})`);
        }
        if (res.status >= 500 || res.status === 429) return this.retry(e, res.data?.message ?? `HTTP ${res.status}`);
        if (res.status === 401) {
            e.state = 'queued';
            e.message = 'waiting for a login';
            await this.save(e);
            return 'stop';
        }
        this.attempt = 0;
        if (res.ok) {
            await this.follow(e.key, { after: null, ifMatch: res.etag });
            await this.remove(e.key);
            e.replayed = res.headers.get('Idempotent-Replayed') === 'true';
            this.emit('sent', { entry: e, res });
            return 'ok';
        }
        e.message = res.data?.message ?? `HTTP ${res.status}`;
        e.status = res.status;
        if (res.status === 412 || res.status === 409) {
            e.state = 'conflict';
            const now = await api.call(e.path).catch(() => null);
            e.theirs = now && now.ok ? { score: now.data.voie.score, tiebreak: now.data.voie.tiebreak, etag: now.etag } : null;
        } else {
            e.state = 'failed';
        }
        await this.save(e);
        this.emit(e.state, { entry: e, res });
        return e.state;
    }

    async retry(e, why) {
        e.state = 'queued';
        e.message = why;
        await this.save(e);
        this.attempt += 1;
        this.schedule();
        return 'stop';
    }

    // Keep mine: sent again over the lane as it is now (its current ETag), with a new
    // key (the old one's answer, the 412, is what the API keeps for it).
    async keepMine(key) {
        const e = this.entries.get(key);
        if (!e || e.state !== 'conflict') return;
        const now = await api.call(e.path).catch((err) => ({ ok: false, data: { message: `the network failed (${err.message})` } }));
        if (!now.ok) {
            e.message = now.data?.message ?? `HTTP ${now.status}`;
            await this.save(e);
            this.emit('change');
            return;
        }
        const again = { ...e, key: newKey(), state: 'queued', ifMatch: now.etag, theirs: null, message: null,
                        status: null, attempts: 0 };
        await this.save(again);
        await this.follow(key, { after: again.key });
        await this.remove(key);
        this.emit('change');
        await this.flush();
    }

    // The entries that waited for KEY's answer now wait for / start from CHANGE.
    async follow(key, change) {
        for (const next of [...this.entries.values()]) {
            if (next.after === key) await this.save(Object.assign(next, change));
        }
    }

    // Take theirs (a conflict) or dismiss (a failed entry): the entry is dropped.
    async drop(key) {
        const e = this.entries.get(key);
        if (!e) return;
        await this.follow(key, { after: null, ifMatch: e.ifMatch });
        await this.remove(key);
        this.emit('dropped', { entry: e });
        this.emit('change');
    }
}

export const outbox = new Outbox();
