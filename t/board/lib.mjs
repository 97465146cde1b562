// lib.mjs: what the page's tests (board.test.mjs, org.test.mjs, day.test.mjs) share:
// the API called straight (as another tablet would), a login, Chromium as the test
// runs it, a browser context with its own request log, and the page's login form.
import { existsSync } from 'node:fs';
import puppeteer from 'puppeteer-core';

export const BASE = process.env.BASE;

export function assert(cond, msg) { if (!cond) throw new Error(msg); }
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// PATH relative to BASE; BODY an object (sent as JSON) or a string (sent as it is,
// with the Content-Type the caller gives in HEADERS).
export async function apiCall(path, { method = 'GET', token, body, headers = {} } = {}) {
    const h = { ...headers };
    if (token) h.Authorization = `Bearer ${token}`;
    let payload;
    if (typeof body === 'string') payload = body;
    else if (body !== undefined) {
        h['Content-Type'] = 'application/json';
        payload = JSON.stringify(body);
    }
    const res = await fetch(new URL(path, BASE), { method, headers: h, body: payload });
    const text = await res.text();
    return { status: res.status, etag: res.headers.get('ETag'), data: text ? JSON.parse(text) : null };
}

// The demo's logins have the user's name as password.
export async function tokenOf(user) {
    const r = await apiCall('connect', { method: 'POST', body: { client_id: user, client_secret: user } });
    assert(r.status === 200, `login ${user}: ${r.status}`);
    return r.data.access_token;
}

// Debian's Chromium, headless (the binary itself when it is there: the wrapper script
// /usr/bin/chromium reads flags of its own).
export function launchBrowser() {
    const exe = existsSync('/usr/lib/chromium/chromium') ? '/usr/lib/chromium/chromium' : process.env.CHROMIUM;
    return puppeteer.launch({
        executablePath: exe, headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run',
               '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
}

// A page in a browser context of its own (empty storage) and its log: the URLs it
// requested, the dialogs it opened (dismissed), its script errors.  LOGS, when given,
// collects every tab's log.
export async function newTab(browser, viewport = { width: 1280, height: 900 }, logs = null) {
    const ctx = await browser.createBrowserContext();
    const p = await ctx.newPage();
    await p.setViewport(viewport);
    const log = { requests: [], dialogs: [], errors: [] };
    p.on('request', (r) => log.requests.push(r.url()));
    p.on('dialog', async (d) => { log.dialogs.push(d.message()); await d.dismiss(); });
    p.on('pageerror', (e) => log.errors.push(String(e)));
    if (logs) logs.push(log);
    return { ctx, p, log };
}

// The page's login form, as a person fills it in.
export async function logIn(p, user) {
    await p.waitForSelector('#login-form', { visible: true });
    await p.type('input[name=client_id]', user);
    await p.type('input[name=client_secret]', user);
    await p.click('#login-form button[type=submit]');
}

// A check of a test file: FN run, "ok - NAME" or "not ok - NAME" and the error's first
// lines printed; summary() prints "N passed, M failed" and exits (1 when one failed).
let passed = 0;
let failed = 0;
export async function check(name, fn) {
    try {
        await fn();
        passed += 1;
        console.log(`ok - ${name}`);
    } catch (e) {
        failed += 1;
        console.log(`not ok - ${name}\n  ${String(e && e.stack || e).split('\n').slice(0, 4).join('\n  ')}`);
    }
}
export function summary() {
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed ? 1 : 0);
}
