// live.js: the competition's lane changes, as they happen.
//
// The event stream (GET /competition/{c}/events) is read with fetch(), because
// EventSource cannot send the Authorization header.  A dropped stream is reopened with
// Last-Event-ID, so the server replays what was missed.  After three failed attempts
// in a row (a proxy that buffers streams, a server at its listener limit, ...) the
// page long-polls GET /competition/{c}/heat/?limit=1 (If-None-Match + Prefer: wait=25)
// for a minute, then tries the stream again.
//
// Without a token (a public mount, RankingPublic On) the stream is asked for without
// Authorization, as an EventSource would: the API's Part 3 ("Spectators live") serves
// it, with the published view of the scores.  A server that does not stream to
// anonymous clients (401, older than Part 3) or that does not stream at all (406) is
// long-polled instead, for as long as the page stays open.
//
// Events: "state" (detail: "connecting" | "live" | "polling" | "reconnecting" | "off")
// and "change" (detail: the lane event's data; the data of an "event: change" (a heat,
// WOD, spot... changed: it has "resource"); or {resync: true} when the views must
// reload everything: a stream (re)opened without a known id, or a long-poll change).

import { call, token, url } from './api.js';

const WATCHDOG_MS = 40000;      // the server sends a comment at least every 15 s
const POLL_WAIT_S = 25;
const POLL_PERIOD_MS = 60000;

const sleep = (ms, signal) => new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    if (signal) signal.addEventListener('abort', () => { clearTimeout(t); resolve(); }, { once: true });
});

export class Live extends EventTarget {
    constructor(competitionId) {
        super();
        this.c = competitionId;
        this.lastId = null;
        this.state = 'off';
        this.stopper = new AbortController();
    }

    setState(s) {
        if (s === this.state) return;
        this.state = s;
        this.dispatchEvent(new CustomEvent('state', { detail: s }));
    }

    emit(detail) {
        this.dispatchEvent(new CustomEvent('change', { detail }));
    }

    stop() {
        this.stopper.abort();
        this.setState('off');
    }

    get stopped() { return this.stopper.signal.aborted; }

    async start() {
        let failures = 0;
        this.setState('connecting');
        while (!this.stopped) {
            let opened = false;
            try {
                opened = await this.stream(() => { failures = 0; });
            } catch (e) {
                if (e && e.unauthorized) return this.stop();
            }
            if (this.stopped) break;
            if (opened === 'refused') {             // no stream for this page on this server:
                await this.poll(Infinity);           // long polls until the page leaves
                continue;
            }
            if (!opened) failures += 1;
            this.setState('reconnecting');
            if (failures >= 3) {
                await this.poll(Date.now() + POLL_PERIOD_MS);
                failures = 0;
                continue;
            }
            await sleep(opened ? 500 : 1000 * 2 ** failures, this.stopper.signal);
        }
    }

    // One stream, until it ends.  Returns whether it opened ('refused': 401 to a page
    // without a token, or 406: this server does not stream to this page).
    async stream(onOpen) {
        const ctrl = new AbortController();
        const abort = () => ctrl.abort();
        this.stopper.signal.addEventListener('abort', abort, { once: true });
        let watchdog = setTimeout(abort, WATCHDOG_MS);
        const headers = { Accept: 'text/event-stream' };
        if (this.lastId !== null) headers['Last-Event-ID'] = this.lastId;
        try {
            const res = await fetch(this.streamUrl(), { headers: this.auth(headers), cache: 'no-store',
                                                        credentials: 'omit', signal: ctrl.signal });
            if ((res.status === 401 && !token()) || res.status === 406) return 'refused';
            if (res.status === 401) {
                await call(`competition/${this.c}`);   // lets api.js end the session
                throw Object.assign(new Error('unauthorized'), { unauthorized: true });
            }
            if (!res.ok || !res.body) return false;
            onOpen();
            this.setState('live');
            // without an id to resume from, changes made before the stream opened
            // were not replayed: the views reload once
            if (this.lastId === null) this.emit({ resync: true });
            const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
            let buf = '';
            let ev = { id: null, event: 'message', data: [] };
            for (;;) {
                const { value, done } = await reader.read();
                if (done) break;
                clearTimeout(watchdog);
                watchdog = setTimeout(abort, WATCHDOG_MS);
                buf += value;
                const lines = buf.split(/\r\n|\r|\n/);
                buf = lines.pop();
                for (const line of lines) {
                    if (line === '') {
                        this.dispatchSse(ev);
                        ev = { id: null, event: 'message', data: [] };
                        continue;
                    }
                    if (line.startsWith(':')) continue;
                    const i = line.indexOf(':');
                    const field = i < 0 ? line : line.slice(0, i);
                    let val = i < 0 ? '' : line.slice(i + 1);
                    if (val.startsWith(' ')) val = val.slice(1);
                    if (field === 'id') ev.id = val;
                    else if (field === 'event') ev.event = val;
                    else if (field === 'data') ev.data.push(val);
                }
            }
            return true;
        } catch (e) {
            if (e && e.unauthorized) throw e;
            return this.state === 'live';
        } finally {
            clearTimeout(watchdog);
            this.stopper.signal.removeEventListener('abort', abort);
            ctrl.abort();
        }
    }

    dispatchSse(ev) {
        if (ev.id !== null && ev.id !== '') this.lastId = ev.id;
        if ((ev.event !== 'lane' && ev.event !== 'change') || ev.data.length === 0) return;
        let data;
        try { data = JSON.parse(ev.data.join('\n')); } catch { return; }
        if (!data || typeof data !== 'object') return;
        if (ev.event === 'change' && typeof data.resource !== 'string') return;
        this.emit(data);
    }

    // Long poll until `until` (ms): any change of the data gives a list a new ETag (a
    // list's tag is the data revision's; a single resource's follows that resource
    // only, in the API's Part 3).
    async poll(until) {
        this.setState('polling');
        let etag = this.pollEtag ?? null;
        while (!this.stopped && Date.now() < until) {
            const headers = etag ? { 'If-None-Match': etag, Prefer: `wait=${POLL_WAIT_S}` } : {};
            let res;
            try {
                res = await call(`competition/${this.c}/heat/?limit=1`, { headers, cache: 'no-store',
                                                            signal: this.stopper.signal });
            } catch {
                if (this.stopped) return;
                this.setState('reconnecting');
                await sleep(2000, this.stopper.signal);
                continue;
            }
            if (res.status === 401) return this.stop();
            if (res.status === 200) {
                this.setState('polling');
                if (etag !== null && res.etag !== etag) this.emit({ resync: true });
                etag = res.etag;
                this.pollEtag = etag;
                if (!etag) await sleep(5000, this.stopper.signal);   // cannot wait: plain polling
            } else if (res.status !== 304) {
                this.setState('reconnecting');
                await sleep(5000, this.stopper.signal);
            }
        }
    }

    streamUrl() {
        return url(`competition/${this.c}/events`);
    }

    auth(headers) {
        const t = token();
        return t ? { ...headers, Authorization: `Bearer ${t}` } : headers;
    }
}
