// api.js: the calls to mod_ranking.  The token lives in sessionStorage (gone when
// the tab closes) and travels only in the Authorization header, never in a URL.
//
// Where the API is: discover() tries, in order, the address typed in the login form
// (kept in this browser), the "api" of config.json beside index.html (the Debian
// package installs one that says "../api/v1/", the address of its site), the
// "ranking-api" meta tag of index.html ("../": the demo's layout), and "../api/v1/".
// The first that answers as mod_ranking does (JSON to GET competition/: 200 on a
// public mount, 401 elsewhere) is used; when none does, the page says so.

const TOKEN_KEY = 'ranking.token';
const API_KEY = 'ranking.api';

let current = null;     // the API base in use (absolute, ends with "/")

const abs = (u, base = document.baseURI) => {
    const a = new URL(u, base).href;
    return a.endsWith('/') ? a : a + '/';
};

export function defaultApiBase() {
    const meta = document.querySelector('meta[name="ranking-api"]');
    return abs(meta ? meta.content : '../');
}

export function apiBase() {
    return current || localStorage.getItem(API_KEY) || defaultApiBase();
}

// The login form's address: kept for this browser unless it is the default.
export function setApiBase(u) {
    const base = abs(u || defaultApiBase());
    if (base === defaultApiBase()) localStorage.removeItem(API_KEY);
    else localStorage.setItem(API_KEY, base);
    current = base;
    return base;
}

export const token = () => sessionStorage.getItem(TOKEN_KEY);
export const clearToken = () => sessionStorage.removeItem(TOKEN_KEY);

// A 401 anywhere but /connect: the session is over (expired, revoked), or this mount
// needs a login for what an anonymous page asked.
export const events = new EventTarget();

export function url(path) {
    return new URL(path, apiBase()).href;
}

// config.json beside the page: {"api": "<address relative to config.json>"}.
async function configured() {
    try {
        const res = await fetch('config.json', { cache: 'no-cache', credentials: 'omit' });
        if (!res.ok) return null;
        const cfg = await res.json();
        return cfg && typeof cfg.api === 'string' ? abs(cfg.api, res.url) : null;
    } catch {
        return null;
    }
}

// GET competition/ without a token: what answers there.
async function probe(base) {
    let res;
    try {
        res = await fetch(new URL('competition/', base), { cache: 'no-cache', credentials: 'omit',
                                                           referrerPolicy: 'no-referrer',
                                                           headers: { Accept: 'application/json' } });
    } catch (e) {
        return { base, found: false, why: `cannot connect (${e.message})` };
    }
    let data = null;
    if ((res.headers.get('Content-Type') || '').includes('json')) {
        try { data = await res.json(); } catch { data = null; }
    }
    if (res.status === 200 && data && Array.isArray(data.competitions)) {
        return { base, found: true, public: true, competitions: data.competitions };
    }
    if (res.status === 401 && data && data.status === 'error') return { base, found: true, public: false };
    return { base, found: false, why: `HTTP ${res.status}${data ? '' : ', not the API'}` };
}

// Finds the API: {found: true, base, public, competitions?} or {found: false, tried:
// [{base, why}]}.
export async function discover() {
    const list = [];
    const stored = localStorage.getItem(API_KEY);
    if (stored) list.push(stored);
    const cfg = await configured();
    if (cfg) list.push(cfg);
    list.push(defaultApiBase(), abs('../api/v1/'));
    const tried = [];
    for (const base of [...new Set(list)]) {
        const r = await probe(base);
        if (r.found) {
            current = base;
            return r;
        }
        tried.push(r);
    }
    current = list[0];
    return { found: false, tried };
}

// fetch() with the bearer token.  Never throws for an HTTP status: returns
// {status, ok, etag, headers, data} (data: the parsed JSON body, or null).
export async function call(path, { method = 'GET', body, headers = {}, signal, cache = 'no-cache' } = {}) {
    const h = { ...headers };
    const t = token();
    if (t) h.Authorization = `Bearer ${t}`;
    let payload;
    if (body !== undefined) {
        h['Content-Type'] = 'application/json';
        payload = JSON.stringify(body);
    }
    const res = await fetch(url(path), { method, headers: h, body: payload, signal, cache,
                                         credentials: 'omit', referrerPolicy: 'no-referrer' });
    let data = null;
    if ((res.headers.get('Content-Type') || '').includes('json') && method !== 'HEAD') {
        try { data = await res.json(); } catch { data = null; }
    }
    if (res.status === 401 && path !== 'connect') {
        clearToken();
        events.dispatchEvent(new CustomEvent('unauthorized', { detail: { hadToken: Boolean(t) } }));
    }
    return { status: res.status, ok: res.ok, etag: res.headers.get('ETag'), headers: res.headers, data };
}

export class ApiError extends Error {
    constructor(res) {
        super((res.data && res.data.message) || `HTTP ${res.status}`);
        this.status = res.status;
    }
}

// GET that must succeed: the body's data, or an ApiError.
export async function get(path, opts) {
    const res = await call(path, opts);
    if (!res.ok) throw new ApiError(res);
    return res.data;
}

export async function login(clientId, clientSecret) {
    const res = await call('connect', { method: 'POST',
                                        body: { client_id: clientId, client_secret: clientSecret } });
    if (res.ok && res.data && res.data.access_token) {
        sessionStorage.setItem(TOKEN_KEY, res.data.access_token);
        return null;
    }
    if (res.status === 429) {
        const after = res.headers.get('Retry-After');
        return `Too many failed logins: try again${after ? ` in ${after} s` : ' later'}.`;
    }
    if (!res.data || res.data.status !== 'error') {
        return `No ranking API at ${apiBase()} (HTTP ${res.status}): check the API address below.`;
    }
    return res.data.message || `Login failed (HTTP ${res.status}).`;
}
