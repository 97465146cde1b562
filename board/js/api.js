// api.js: the calls to mod_ranking.  The token lives in sessionStorage (gone when
// the tab closes) and travels only in the Authorization header, never in a URL.

const TOKEN_KEY = 'ranking.token';
const API_KEY = 'ranking.api';

export function defaultApiBase() {
    const meta = document.querySelector('meta[name="ranking-api"]');
    return new URL(meta ? meta.content : '../', document.baseURI).href;
}

export function apiBase() {
    const stored = localStorage.getItem(API_KEY);
    return stored || defaultApiBase();
}

export function setApiBase(url) {
    const abs = new URL(url || defaultApiBase(), document.baseURI).href;
    const base = abs.endsWith('/') ? abs : abs + '/';
    if (base === defaultApiBase()) localStorage.removeItem(API_KEY);
    else localStorage.setItem(API_KEY, base);
    return base;
}

export const token = () => sessionStorage.getItem(TOKEN_KEY);
export const clearToken = () => sessionStorage.removeItem(TOKEN_KEY);

// A 401 anywhere but /connect: the session is over (expired, revoked).
export const events = new EventTarget();

export function url(path) {
    return new URL(path, apiBase()).href;
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
        events.dispatchEvent(new Event('unauthorized'));
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
    return (res.data && res.data.message) || `Login failed (HTTP ${res.status}).`;
}
