// app.js: find the API, log in (or read a public mount without logging in), pick a
// competition, show a view; the views follow live changes.
// Views are addressed by the fragment: #/c/{competition}/{view}[/...] (never a token).
// Each view's module is loaded when it is first shown, so that a phone opening "My
// team" does not download the judges' page.

import * as api from './api.js';
import { h, clear, newId } from './dom.js';
import { Live } from './live.js';

const $ = (id) => document.getElementById(id);
const VIEWS = {
    me: { load: () => import('./phone.js'), name: 'phoneView' },
    leaderboard: { load: () => import('./leaderboard.js'), name: 'leaderboardView' },
    heats: { load: () => import('./heats.js'), name: 'heatsView' },
    big: { load: () => import('./leaderboard.js'), name: 'bigScreenView' },
    judge: { load: () => import('./judge.js'), name: 'judgeView', login: true },
    print: { load: () => import('./print.js'), name: 'printView' },
    // the organizer's views (org*.js); their nav entries show for an organizer
    setup: { load: () => import('./org_setup.js'), name: 'setupView', login: true },
    plan: { load: () => import('./org_heats.js'), name: 'planView', login: true },
    validate: { load: () => import('./org_validate.js'), name: 'validateView', login: true },
};
const PHONE = window.matchMedia('(max-width: 40rem)');

const app = {
    competitions: [],
    comp: null,         // {competition, wods, zones, spots (Map id -> spot)}
    live: null,
    view: null,         // the current view: {refresh(change), dispose()}
    publicReads: false, // the mount answers reads without a token (RankingPublic On)
    probed: null,       // the competition list the API discovery read, if public
};

const LIVE_TEXT = { off: 'offline', connecting: 'connecting…', live: 'live',
                    polling: 'live (polling)', reconnecting: 'reconnecting…' };

function setLiveState(s) {
    const el = $('live-state');
    el.dataset.state = s;
    el.textContent = LIVE_TEXT[s] || s;
}

function parseRoute() {
    const parts = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
    if (parts[0] !== 'c' || !/^[1-9][0-9]*$/.test(parts[1] || '')) return null;
    return { c: parts[1], view: VIEWS[parts[2]] ? parts[2] : defaultView(), args: parts.slice(3) };
}

const defaultView = () => (PHONE.matches ? 'me' : 'leaderboard');

export function go(c, view, ...args) {
    const hash = `#/c/${encodeURIComponent(c)}/${view}${args.map((a) => '/' + encodeURIComponent(a)).join('')}`;
    if (location.hash === hash) render();
    else location.hash = hash;
}

function setChrome(on) {
    for (const id of ['nav', 'tools', 'live-state', 'menu']) $(id).hidden = !on;
    const anon = !api.token();
    $('logout').hidden = anon;
    $('login-open').hidden = !anon;
    document.querySelector('#nav a[data-view="judge"]').parentElement.hidden = anon;
    if (!on || anon) {
        orgRole.clear();
        showOrgNav(false);
    }
    if (!on) setMenu(false);
}

// The organizer's entries: shown when this login may read the competition's change
// log (an organizer there, server-wide or by grant).
const orgRole = new Map();
function showOrgNav(on) {
    for (const li of document.querySelectorAll('#nav li[data-org]')) li.hidden = !on;
}
async function probeOrganizer(c) {
    if (!api.token()) return showOrgNav(false);
    if (!orgRole.has(c)) orgRole.set(c, (await api.call(`competition/${c}/changes?limit=1`)).status === 200);
    showOrgNav(orgRole.get(c));
}

// After an organizer created, renamed or deleted a competition: the list again, then
// that competition's view (or the first one).
async function reopen(c, view = 'setup') {
    stopCompetition();
    orgRole.clear();
    history.replaceState(null, '', c ? `#/c/${encodeURIComponent(c)}/${view}` : location.pathname + location.search);
    await start();
}

function setMenu(open) {
    document.body.classList.toggle('menu-open', open);
    $('menu').setAttribute('aria-expanded', String(open));
}

function stopCompetition() {
    app.live?.stop();
    app.live = null;
    app.view?.dispose?.();
    app.view = null;
    app.comp = null;
}

// problem: {text, api: true} shows the API address field opened
function showLogin(note, problem) {
    stopCompetition();
    document.body.classList.remove('big');
    setChrome(false);
    $('comp-name').textContent = '';
    clear($('view'));
    $('login-view').hidden = false;
    $('login-note').hidden = !note;
    $('login-note').textContent = note || '';
    $('login-error').textContent = problem || '';
    if (problem) $('login-api').open = true;
    $('login-cancel').hidden = !app.publicReads;
    $('login-form').elements.api.value = api.apiBase();
    $('login-form').elements.client_id.focus();
}

function notFound(found) {
    const tried = found.tried.map((t) => `${t.base} (${t.why})`).join('; ');
    return `Cannot find the ranking API: nothing answers as the API at ${tried}. ` +
           'Enter its address under "API address" (for the Debian package\'s site: /api/v1/).';
}

async function onLogin(ev) {
    ev.preventDefault();
    const f = ev.target;
    const err = $('login-error');
    err.textContent = '';
    if (!f.client_id.value || !f.client_secret.value) {
        err.textContent = 'Enter a user and a password.';
        return;
    }
    api.setApiBase(f.api.value.trim());
    f.querySelector('button[type=submit]').disabled = true;
    try {
        const msg = await api.login(f.client_id.value, f.client_secret.value);
        if (msg) {
            err.textContent = msg;
            return;
        }
        f.client_secret.value = '';
        $('login-view').hidden = true;
        await start();
    } catch (e) {
        err.textContent = `Cannot reach the API at ${api.apiBase()} (${e.message}).`;
    } finally {
        f.querySelector('button[type=submit]').disabled = false;
    }
}

async function start() {
    $('login-view').hidden = true;
    if (app.probed && !api.token()) {
        app.competitions = app.probed;
    } else {
        app.competitions = (await api.get('competition/')).competitions;
    }
    app.probed = null;
    const sel = clear($('comp-select'));
    for (const c of app.competitions) sel.append(h('option', { value: c.id }, c.name));
    setChrome(true);
    const r = parseRoute();
    if (!r || !app.competitions.some((c) => c.id === r.c)) {
        const first = app.competitions.find((c) => c.status === 'in_progress') || app.competitions[0];
        if (!first) {
            clear($('view')).append(h('p', { class: 'note' }, 'No competition yet.'));
            if (api.token()) $('view').append((await import('./org.js')).newCompetition(reopen));
            return;
        }
        go(first.id, defaultView());
        return;
    }
    await render();
}

async function loadCompetition(c) {
    if (app.comp && app.comp.competition.id === c) return app.comp;
    stopCompetition();
    const [comp, wods, zones, spots] = await Promise.all([
        api.get(`competition/${c}`), api.get(`competition/${c}/wod/`),
        api.get(`competition/${c}/zone/`), api.get(`competition/${c}/spot/`)]);
    app.comp = { competition: comp.competition, wods: wods.wods, zones: zones.zones,
                 spots: new Map(spots.spots.map((s) => [s.id, s])) };
    app.live = new Live(c);
    app.live.addEventListener('state', (e) => setLiveState(e.detail));
    app.live.addEventListener('change', (e) => scheduleRefresh(e.detail));
    app.live.start();
    return app.comp;
}

// Changes arrive in bursts: let the view see each event, but reload at most every
// 250 ms.
let pending = [];
let timer = null;
function scheduleRefresh(change) {
    pending.push(change);
    if (timer) return;
    timer = setTimeout(async () => {
        timer = null;
        const changes = pending;
        pending = [];
        if (!app.comp) return;
        const c = app.comp.competition.id;
        const touched = (what) => changes.some((ch) => ch.resync || ch.resource === what);
        // a team, WOD, zone or the competition may have changed too
        try {
            const [comp, spots, wods, zones] = await Promise.all([
                touched('competition') ? api.get(`competition/${c}`) : null,
                touched('spot') ? api.get(`competition/${c}/spot/`) : null,
                touched('wod') ? api.get(`competition/${c}/wod/`) : null,
                touched('zone') ? api.get(`competition/${c}/zone/`) : null]);
            if (app.comp?.competition.id !== c) return;
            if (comp) app.comp.competition = comp.competition;
            if (spots) app.comp.spots = new Map(spots.spots.map((s) => [s.id, s]));
            if (wods) app.comp.wods = wods.wods;
            if (zones) app.comp.zones = zones.zones;
        } catch { /* the view's own reload reports it */ }
        try {
            await app.view?.refresh?.(changes);
        } catch (e) {
            console.warn('refresh failed', e);
        }
    }, 250);
}

let renderSeq = 0;
async function render() {
    if (!api.token() && !app.publicReads) return showLogin();
    const r = parseRoute();
    if (!r) return start();
    if (VIEWS[r.view].login && !api.token()) return showLogin('Judges log in to enter scores.');
    const seq = ++renderSeq;
    const view = $('view');
    setMenu(false);
    let make;
    try {
        [make] = await Promise.all([VIEWS[r.view].load().then((m) => m[VIEWS[r.view].name]),
                                    loadCompetition(r.c)]);
    } catch (e) {
        if (!api.token() && !app.publicReads) return;
        clear(view).append(h('p', { class: 'error', role: 'alert' }, `Cannot load the competition: ${e.message}`));
        return;
    }
    probeOrganizer(r.c).catch(() => showOrgNav(false));
    if (seq !== renderSeq) return;
    app.view?.dispose?.();
    app.view = null;
    $('comp-select').value = r.c;
    $('comp-name').textContent = app.comp.competition.name;
    document.title = `${app.comp.competition.name}: scoreboard`;
    for (const a of document.querySelectorAll('#nav a')) {
        a.href = `#/c/${r.c}/${a.dataset.view}`;
        if (a.dataset.view === r.view) a.setAttribute('aria-current', 'page');
        else a.removeAttribute('aria-current');
    }
    document.body.classList.toggle('big', r.view === 'big');
    clear(view);
    view.dataset.view = r.view;
    try {
        app.view = await make({ root: view, comp: app.comp, args: r.args, go, newId, reopen });
    } catch (e) {
        if (!api.token() && !app.publicReads) return;
        clear(view).append(h('p', { class: 'error', role: 'alert' }, `Cannot show this view: ${e.message}`));
    }
}

async function init() {
    setLiveState('off');
    $('login-form').addEventListener('submit', onLogin);
    $('logout').addEventListener('click', () => {
        api.clearToken();
        showLogin('You are logged out.');
    });
    $('login-open').addEventListener('click', () => showLogin());
    $('login-cancel').addEventListener('click', () => start().catch((e) => showLogin(null, e.message)));
    $('menu').addEventListener('click', () => setMenu(!document.body.classList.contains('menu-open')));
    $('comp-select').addEventListener('change', (e) => {
        const r = parseRoute();
        go(e.target.value, r ? r.view : defaultView());
    });
    api.events.addEventListener('unauthorized', (e) => {
        if (e.detail?.hadToken) return showLogin('Your session has ended: log in again.');
        app.publicReads = false;
        return showLogin('This server needs a login.');
    });
    window.addEventListener('hashchange', render);
    const found = await api.discover();
    if (!found.found) return showLogin(null, notFound(found));
    app.publicReads = found.public;
    app.probed = found.competitions || null;
    if (api.token() || app.publicReads) {
        start().catch((e) => {
            if (api.token() || app.publicReads) showLogin(null, `Cannot reach the API (${e.message}).`);
        });
    } else {
        showLogin();
    }
}

init();
