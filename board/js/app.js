// app.js: log in, pick a competition, show a view; the views follow live changes.
// Views are addressed by the fragment: #/c/{competition}/{view}[/...] (never a token).

import * as api from './api.js';
import { h, clear, newId } from './dom.js';
import { Live } from './live.js';
import { heatsView } from './heats.js';
import { leaderboardView, bigScreenView } from './leaderboard.js';
import { judgeView } from './judge.js';

const $ = (id) => document.getElementById(id);
const VIEWS = { heats: heatsView, leaderboard: leaderboardView, big: bigScreenView, judge: judgeView };

const app = {
    competitions: [],
    comp: null,         // {competition, wods, zones, spots (Map id -> spot)}
    live: null,
    view: null,         // the current view: {refresh(change), dispose()}
    route: null,
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
    return { c: parts[1], view: VIEWS[parts[2]] ? parts[2] : 'leaderboard', args: parts.slice(3) };
}

export function go(c, view, ...args) {
    const hash = `#/c/${encodeURIComponent(c)}/${view}${args.map((a) => '/' + encodeURIComponent(a)).join('')}`;
    if (location.hash === hash) render();
    else location.hash = hash;
}

function showLogin(note) {
    app.live?.stop();
    app.live = null;
    app.view?.dispose?.();
    app.view = null;
    app.comp = null;
    document.body.classList.remove('big');
    $('nav').hidden = true;
    $('tools').hidden = true;
    $('comp-name').textContent = '';
    clear($('view'));
    $('login-view').hidden = false;
    $('login-note').hidden = !note;
    $('login-note').textContent = note || '';
    $('login-form').elements.api.value = api.apiBase();
    $('login-form').elements.client_id.focus();
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
    f.querySelector('button').disabled = true;
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
        f.querySelector('button').disabled = false;
    }
}

async function start() {
    const data = await api.get('competition/');
    app.competitions = data.competitions;
    const sel = clear($('comp-select'));
    for (const c of app.competitions) sel.append(h('option', { value: c.id }, c.name));
    $('tools').hidden = false;
    $('nav').hidden = false;
    const r = parseRoute();
    if (!r || !app.competitions.some((c) => c.id === r.c)) {
        const first = app.competitions.find((c) => c.status === 'in_progress') || app.competitions[0];
        if (!first) {
            clear($('view')).append(h('p', { class: 'note' }, 'No competition yet.'));
            return;
        }
        go(first.id, 'leaderboard');
        return;
    }
    await render();
}

async function loadCompetition(c) {
    if (app.comp && app.comp.competition.id === c) return app.comp;
    app.live?.stop();
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

// Changes arrive in bursts: let the view see each lane event, but reload at most
// every 250 ms.
let pending = [];
let timer = null;
function scheduleRefresh(change) {
    pending.push(change);
    if (timer) return;
    timer = setTimeout(async () => {
        timer = null;
        const changes = pending;
        pending = [];
        if (changes.some((c) => c.resync)) {
            // a team, WOD or zone may have changed too
            try {
                const c = app.comp.competition.id;
                const [spots, wods] = await Promise.all([api.get(`competition/${c}/spot/`),
                                                         api.get(`competition/${c}/wod/`)]);
                app.comp.spots = new Map(spots.spots.map((s) => [s.id, s]));
                app.comp.wods = wods.wods;
            } catch { /* the view's own reload reports it */ }
        }
        try {
            await app.view?.refresh?.(changes);
        } catch (e) {
            console.warn('refresh failed', e);
        }
    }, 250);
}

let renderSeq = 0;
async function render() {
    if (!api.token()) return showLogin();
    const r = parseRoute();
    if (!r) return start();
    const seq = ++renderSeq;
    const view = $('view');
    try {
        await loadCompetition(r.c);
    } catch (e) {
        if (!api.token()) return;
        clear(view).append(h('p', { class: 'error', role: 'alert' }, `Cannot load the competition: ${e.message}`));
        return;
    }
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
        app.view = await VIEWS[r.view]({ root: view, comp: app.comp, args: r.args, go, newId });
    } catch (e) {
        if (!api.token()) return;
        clear(view).append(h('p', { class: 'error', role: 'alert' }, `Cannot show this view: ${e.message}`));
    }
}

function init() {
    setLiveState('off');
    $('login-form').addEventListener('submit', onLogin);
    $('logout').addEventListener('click', () => {
        api.clearToken();
        showLogin('You are logged out.');
    });
    $('comp-select').addEventListener('change', (e) => {
        const r = parseRoute();
        go(e.target.value, r ? r.view : 'leaderboard');
    });
    api.events.addEventListener('unauthorized', () => showLogin('Your session has ended: log in again.'));
    window.addEventListener('hashchange', render);
    if (api.token()) {
        start().catch((e) => {
            if (api.token()) showLogin(`Cannot reach the API (${e.message}).`);
        });
    } else {
        showLogin();
    }
}

init();
