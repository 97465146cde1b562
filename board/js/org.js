// org.js: what the organizer's views share (org_setup.js, org_teams.js, org_heats.js,
// org_generate.js, org_validate.js): writes with a retry key, messages, form fields,
// times in the competition's time zone, and the form of a new competition.
//
// Every write carries an Idempotency-Key (API.md part 3, "Safe retries"): when the
// network fails before an answer arrives, the same request is sent once more with the
// same key, so that a POST that did reach the server is not made twice.

import * as api from './api.js';
import { h, clear } from './dom.js';

function newKey() {
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    return 'org-' + [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
}

// A CSV body: api.call sends JSON only.
async function callText(path, { method, text, type, headers }) {
    const hd = { ...headers, 'Content-Type': type };
    if (api.token()) hd.Authorization = `Bearer ${api.token()}`;
    const res = await fetch(api.url(path), { method, headers: hd, body: text, cache: 'no-store',
                                             credentials: 'omit', referrerPolicy: 'no-referrer' });
    let data = null;
    try { data = await res.json(); } catch { data = null; }
    if (res.status === 401) await api.call(path.split('/').slice(0, 2).join('/'));   // lets api.js end the session
    return { status: res.status, ok: res.ok, etag: res.headers.get('ETag'), headers: res.headers, data };
}

// {status, ok, etag, data}; never throws for an HTTP status.  A network failure is
// retried once with the same key, then thrown.
export async function write(path, { method = 'POST', body, csv, headers = {} } = {}) {
    const hd = { ...headers, 'Idempotency-Key': newKey() };
    const once = () => (csv !== undefined
        ? callText(path, { method, text: csv, type: 'text/csv; charset=utf-8', headers: hd })
        : api.call(path, { method, body, headers: hd, cache: 'no-store' }));
    try {
        return await once();
    } catch {
        await new Promise((r) => setTimeout(r, 800));
        return once();
    }
}

// The API's message of a refused write, as it says it.
export function problem(res) {
    if (res.status === 403) return 'This login may not do that: an organizer may.';
    return res.data?.message || `HTTP ${res.status}`;
}

// A message area: say(el, text, kind) with kind ok | error | warn | ''.
export const msg = (attrs = {}) => h('p', { class: 'org-msg', role: 'status', 'aria-live': 'polite', ...attrs });
export function say(el, text, kind = '') {
    el.textContent = text || '';
    el.dataset.kind = kind;
    return el;
}

// Runs a write from a button: disables it meanwhile, says the outcome in `out`.
// `act` returns a result of write(); on success `done(res)` is awaited.
export async function run(button, out, act, done, okText = 'Saved.') {
    if (button) button.disabled = true;
    say(out, 'Saving…');
    try {
        const res = await act();
        if (res.ok) {
            say(out, okText, 'ok');
            if (done) await done(res);
        } else if (res.status !== 401) {
            say(out, problem(res), 'error');
        }
        return res;
    } catch (e) {
        say(out, `Not saved: the network failed (${e.message}).`, 'error');
        return null;
    } finally {
        if (button) button.disabled = false;
    }
}

// A button that asks to be pressed twice (no dialog): "Delete" then "Really delete?".
export function twoStep(label, confirmLabel, action, attrs = {}) {
    const b = h('button', { type: 'button', class: 'danger', ...attrs }, label);
    let armed = null;
    b.addEventListener('click', async () => {
        if (!armed) {
            b.textContent = confirmLabel;
            b.dataset.armed = 'true';
            armed = setTimeout(() => { armed = null; b.textContent = label; delete b.dataset.armed; }, 5000);
            return;
        }
        clearTimeout(armed);
        armed = null;
        b.textContent = label;
        delete b.dataset.armed;
        await action(b);
    });
    return b;
}

export function field(label, input, hint) {
    return h('label', { class: 'org-field' }, h('span', {}, label), input, hint ? h('small', { class: 'sub' }, hint) : null);
}

export function select(name, options, value) {
    const s = h('select', { name }, options.map(([v, t]) => h('option', { value: v }, t)));
    s.value = value ?? options[0]?.[0] ?? '';
    return s;
}

// The value of a text input for the API: '' is null.
export const orNull = (v) => (v.trim() === '' ? null : v.trim());
export function intOrNull(v) {
    if (v.trim() === '') return null;
    return /^-?[0-9]+$/.test(v.trim()) ? Number(v.trim()) : NaN;
}

// A time cap in seconds, shown and typed as m:ss (or plain seconds).
export function capText(s) {
    if (s === null || s === undefined) return '';
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
export function capSeconds(t) {
    t = t.trim();
    if (t === '') return null;
    let m = /^([0-9]+):([0-5][0-9])$/.exec(t);
    if (m) return Number(m[1]) * 60 + Number(m[2]);
    m = /^[0-9]+$/.exec(t);
    return m ? Number(t) : NaN;
}

// ---- Times: the API's instants are UTC; the organizer types the venue's local time.

function offsetMs(tz, ms) {
    const f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit',
                                                 day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
    return Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second) - Math.floor(ms / 1000) * 1000;
}

function zoneOk(tz) {
    if (!tz) return false;
    try { new Intl.DateTimeFormat('en-US', { timeZone: tz }); return true; } catch { return false; }
}

// "2026-11-28T09:00:00Z" -> "2026-11-28T10:00" (the value of a datetime-local input)
export function toLocalInput(iso, tz) {
    if (!iso) return '';
    const ms = Date.parse(iso);
    if (Number.isNaN(ms)) return '';
    const off = zoneOk(tz) ? offsetMs(tz, ms) : -new Date(ms).getTimezoneOffset() * 60000;
    return new Date(ms + off).toISOString().slice(0, 16);
}

// "2026-11-28T10:00" (the venue's time) -> "2026-11-28T09:00:00Z"; '' -> null
export function fromLocalInput(v, tz) {
    if (!v) return null;
    const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})/.exec(v);
    if (!m) return null;
    const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]);
    let ms;
    if (zoneOk(tz)) {
        ms = wall - offsetMs(tz, wall);
        ms = wall - offsetMs(tz, ms);       // again, across a change of offset
    } else {
        ms = new Date(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]).getTime();
    }
    return new Date(ms).toISOString().replace(/\.[0-9]{3}Z$/, 'Z');
}

export const tzNote = (comp) => (comp.competition.timezone ? `time in ${comp.competition.timezone}` : 'this browser\'s time');

// ---- The competition's fields, for its form (new or existing).

const COMP_FIELDS = [
    ['name', 'Name', 'text'], ['location', 'Location', 'text'], ['start_date', 'First day', 'date'],
    ['end_date', 'Last day', 'date'], ['timezone', 'Time zone', 'text', 'e.g. Europe/Paris'],
];

// c: the competition (a function that gives it: the form compares with it as it is
// when submitted), or null for a new one
export function competitionForm(current, onSubmit) {
    let c = typeof current === 'function' ? current() : current;
    const f = h('form', { class: 'org-form', novalidate: true });
    for (const [k, label, type, hint] of COMP_FIELDS) {
        f.append(field(label, h('input', { name: k, type, value: c?.[k] ?? '', required: k === 'name' }), hint));
    }
    f.append(field('Status', select('status', [['upcoming', 'upcoming'], ['in_progress', 'in progress'], ['finished', 'finished']], c?.status ?? 'upcoming')),
             field('Ranking', select('ranking', [['places', 'places (sum of places)'], ['chart100', 'points (100 for first)']], c?.ranking ?? 'places')),
             field('Publication', select('publication', [['immediate', 'immediate'], ['validated', 'after validation']], c?.publication ?? 'immediate')),
             field('Cut line', h('input', { name: 'advance', inputmode: 'numeric', value: c?.advance ?? '' }), 'teams per division that advance; empty: none'));
    const out = msg();
    f.append(h('div', { class: 'org-actions' }, h('button', { type: 'submit' }, c ? 'Save competition' : 'Create competition')), out);
    f.addEventListener('submit', async (ev) => {
        ev.preventDefault();
        if (typeof current === 'function') c = current();
        const body = {};
        const e = f.elements;
        for (const [k] of COMP_FIELDS) {
            const v = k === 'name' ? e[k].value.trim() : orNull(e[k].value);
            if (!c || v !== (c[k] ?? null)) body[k] = v;
        }
        for (const k of ['status', 'ranking', 'publication']) if (!c || e[k].value !== c[k]) body[k] = e[k].value;
        const adv = intOrNull(e.advance.value);
        if (Number.isNaN(adv)) return say(out, 'The cut line is a whole number of teams, or empty.', 'error');
        if (!c || adv !== (c.advance ?? null)) body.advance = adv;
        if (!c) for (const k of Object.keys(body)) if (body[k] === null) delete body[k];
        if (!Object.keys(body).length) return say(out, 'Nothing changed.', '');
        await run(f.querySelector('button[type=submit]'), out, () => onSubmit(body), null, c ? 'Saved.' : 'Created.');
    });
    return f;
}

// The form of a new competition; `reopen(id, view)` shows it once created.
export function newCompetition(reopen, onCancel) {
    const box = h('section', { class: 'org-new', 'aria-labelledby': 'org-new-title' },
        h('h3', { id: 'org-new-title' }, 'New competition'));
    box.append(competitionForm(null, async (body) => {
        const res = await write('competition/', { body });
        if (res.ok) await reopen(res.data.competition.id, 'setup');
        return res;
    }));
    if (onCancel) {
        const b = h('button', { type: 'button', class: 'link' }, 'Cancel');
        b.addEventListener('click', onCancel);
        box.append(b);
    }
    return box;
}

// ---- A table of resources (WODs, zones, teams): one row of inputs per resource,
// Save (PATCH of the keys changed) and Delete (twice), and a last row that adds one.
// cols: [{key, label, make(value) -> input, read(input) -> value (throws Error(why))}]
// base: the list's path ("competition/4/wod/"); kind: the answer's key ("wod").

// A table is drawn again after each change: the outcome of the last one is kept here
// (per list) and shown in the row it concerns ('new': the last row).
const flashes = new Map();
export function flash(base, id, text) {
    flashes.set(base, { id, text });
}
// The list was not drawn again (its data were drawn already, by the change's own
// event): the outcome goes to the row as it is.
export function settle(base, root) {
    const f = flashes.get(base);
    if (!f) return;
    flashes.delete(base);
    const row = [...root.querySelectorAll('tr[data-id], tr.org-new-row')]
        .find((tr) => (f.id === 'new' ? tr.classList.contains('org-new-row') : tr.dataset.id === f.id));
    const out = row?.querySelector('.org-msg');
    if (out) say(out, f.text, 'ok');
}
function flashed(base, id, out) {
    const f = flashes.get(base);
    if (f && f.id === id) {
        say(out, f.text, 'ok');
        flashes.delete(base);
    }
    return out;
}

export function resourceTable({ caption, kind, cols, items, base, after, name }) {
    const table = h('table', { class: 'org-table', dataset: { kind } },
        h('caption', {}, caption),
        h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col' }, c.label)), h('th', { scope: 'col' }, ''))));
    const tbody = h('tbody');
    table.append(tbody);
    const readRow = (inputs, item) => {
        const body = {};
        for (const c of cols) {
            const v = c.read(inputs[c.key]);
            if (!item || v !== (item[c.key] ?? null)) body[c.key] = v;
        }
        if (!item) for (const k of Object.keys(body)) if (body[k] === null) delete body[k];
        return body;
    };
    for (const item of items) {
        const inputs = Object.fromEntries(cols.map((c) => [c.key, c.make(item[c.key])]));
        const out = flashed(base, item.id, msg());
        const save = h('button', { type: 'button', class: 'save' }, 'Save');
        const tr = h('tr', { dataset: { id: item.id } },
            cols.map((c) => h('td', {}, labelled(inputs[c.key], `${c.label} of ${name(item)}`))),
            h('td', { class: 'org-row-actions' }, save, twoStep('Delete', 'Really delete?', (b) => run(b, out,
                () => write(base + item.id, { method: 'DELETE' }), () => { flash(base, 'new', 'Deleted.'); return after(); },
                'Deleted.'), { class: 'danger delete' }), out));
        save.addEventListener('click', () => {
            let body;
            try { body = readRow(inputs, item); } catch (e) { return say(out, e.message, 'error'); }
            if (!Object.keys(body).length) return say(out, 'Nothing changed.', '');
            return run(save, out, () => write(base + item.id, { method: 'PATCH', body }),
                       () => { flash(base, item.id, 'Saved.'); return after(); });
        });
        tbody.append(tr);
    }
    const inputs = Object.fromEntries(cols.map((c) => [c.key, c.make(c.initial ?? null)]));
    const out = flashed(base, 'new', msg());
    const add = h('button', { type: 'button', class: 'add' }, 'Add');
    add.addEventListener('click', () => {
        let body;
        try { body = readRow(inputs, null); } catch (e) { return say(out, e.message, 'error'); }
        return run(add, out, () => write(base, { body }), (res) => {
            flash(base, res.data[kind]?.id, 'Added.');
            return after();
        }, 'Added.');
    });
    tbody.append(h('tr', { class: 'org-new-row' },
        cols.map((c) => h('td', {}, labelled(inputs[c.key], `${c.label} of a new ${kind}`))),
        h('td', { class: 'org-row-actions' }, add, out)));
    return h('div', { class: 'scroll' }, table);
}

function labelled(input, label) {
    input.setAttribute('aria-label', label);
    return input;
}

// Column helpers for resourceTable.
export const textCol = (key, label, { required = false, nullable = true, ...rest } = {}) => ({
    key, label, ...rest,
    make: (v) => h('input', { name: key, value: v ?? '' }),
    read: (el) => {
        const v = el.value.trim();
        if (required && v === '') throw new Error(`${label}: required.`);
        return v === '' && nullable ? null : v;
    },
});
export const intCol = (key, label, { required = false, ...rest } = {}) => ({
    key, label, ...rest,
    make: (v) => h('input', { name: key, value: v ?? '', inputmode: 'numeric', class: 'narrow' }),
    read: (el) => {
        const v = intOrNull(el.value);
        if (Number.isNaN(v) || (required && v === null)) throw new Error(`${label}: a whole number${required ? '' : ', or empty'}.`);
        return v;
    },
});
export const selectCol = (key, label, options, rest = {}) => ({
    key, label, ...rest,
    make: (v) => select(key, options, v ?? options[0][0]),
    read: (el) => el.value,
});

// "N scores wait for validation" and the like
export const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

export { h, clear, api };
