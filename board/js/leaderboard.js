// leaderboard.js: the overall and WOD leaderboards, per division; and the big
// screen, which shows one division at a time, large, and cycles through them, beside
// the running heat(s) of each zone (heats.js: runningPanel).

import * as api from './api.js';
import { h, clear, append } from './dom.js';
import { sharedRanks, placeText } from './format.js';

export const divisionName = (d) => d.division ?? 'No division';

// Division names as the API orders them: by UTF-8 bytes, the spots without one last.
const utf8 = new TextEncoder();
function byBytes(a, b) {
    const x = utf8.encode(a);
    const y = utf8.encode(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
    return x.length - y.length;
}
export function divisionsOf(spots) {
    const names = [...new Set([...spots.values()].map((s) => s.division))];
    const named = names.filter((n) => n !== null).sort(byBytes);
    return names.includes(null) ? [...named, null] : named;
}

// One division's leaderboard (?division=, lighter) or every division's.
export async function fetchBoard(c, which, division) {
    const path = which === 'overall' ? `competition/${c}/leaderboard` : `competition/${c}/wod/${which}/leaderboard`;
    const q = typeof division === 'string' ? `?division=${encodeURIComponent(division)}` : '';
    return (await api.get(path + q)).leaderboard;
}

function placeCell(tag, rank, shared) {
    return h(tag, { class: 'place', dataset: { rank: rank ?? '' },
                    title: shared ? 'shared place' : null },
        placeText(rank, shared), shared ? h('span', { class: 'sr' }, ' (shared)') : null);
}

// The cut line (the API's Part 3: "advancing" on overall entries, from the
// competition's "advance") goes after the last advancing entry that is followed by
// one that is not.
function cutAfter(rows) {
    const at = new Set();
    for (let i = 0; i + 1 < rows.length; i++) {
        if (rows[i].advancing === true && rows[i + 1].advancing === false) at.add(i);
    }
    return at;
}

export function boardTable(board, div, comp, { big = false, rows = div.entries, mine = null } = {}) {
    const overall = !board.wod_id;
    const shared = sharedRanks(div.entries);
    const wods = overall ? board.wods.map((id) => comp.wods.find((w) => w.id === id) || { id, name: id }) : [];
    const head = [h('th', { scope: 'col' }, 'Place'), h('th', { scope: 'col' }, 'Team')];
    if (!big) head.push(h('th', { scope: 'col', class: 'num bib-col' }, 'Bib'));
    if (!overall) head.push(h('th', { scope: 'col' }, 'Score'), h('th', { scope: 'col' }, 'Tiebreak'));
    head.push(h('th', { scope: 'col', class: 'num' }, 'Points'));
    if (overall && !big) for (const w of wods) head.push(h('th', { scope: 'col', class: 'wod-col' }, w.name));
    // (a slide of the big screen shows some rows: the line is where it is among all)
    const off = Math.max(0, div.entries.indexOf(rows[0]));
    const cuts = overall ? new Set([...cutAfter(div.entries)].map((i) => i - off)) : new Set();
    const advance = comp.competition.advance;
    // shared places within each WOD, among this division's entries
    const wodShared = overall ? wods.map((w, k) => sharedRanks(div.entries.map((x) => x.results[k]))) : [];
    const body = [];
    rows.forEach((e, i) => {
        const cells = [placeCell('td', e.rank, shared.has(e.rank)),
                       h('th', { scope: 'row', class: 'team' }, e.spot_name)];
        if (!big) cells.push(h('td', { class: 'num bib-col' }, e.bib ?? ''));
        if (!overall) cells.push(h('td', { class: 'score' }, e.score ?? ''), h('td', { class: 'score' }, e.tiebreak ?? ''));
        cells.push(h('td', { class: 'num points' }, e.points));
        if (overall && !big) {
            e.results.forEach((r, k) => {
                cells.push(h('td', { class: 'result wod-col' },
                    placeText(r.rank, wodShared[k].has(r.rank)),
                    r.score !== null ? h('span', { class: 'sub' }, ` ${r.score}`) : null));
            });
        }
        body.push(h('tr', { class: e.spot_id === mine ? 'mine' : null,
                            dataset: { spotId: e.spot_id, rank: e.rank ?? '',
                                       advancing: e.advancing === undefined || e.advancing === null ? null : String(e.advancing) } },
                    cells));
        if (cuts.has(i)) {
            body.push(h('tr', { class: 'cut-line' },
                h('td', { colspan: cells.length },
                  Number.isInteger(advance) ? `Cut line: the top ${advance} go through` : 'Cut line: the teams above go through')));
        }
    });
    return h('table', { class: 'board', dataset: { division: divisionName(div) } },
        h('caption', {}, divisionName(div)),
        h('thead', {}, h('tr', {}, head)),
        h('tbody', {}, body));
}

// "WOD results" on a phone: the per-WOD columns, on demand.
export function wodToggle(container) {
    const box = h('input', { type: 'checkbox', class: 'wod-toggle' });
    box.addEventListener('change', () => container.classList.toggle('show-wods', box.checked));
    return h('label', { class: 'toggle' }, box, ' WOD results');
}

export async function leaderboardView({ root, comp, args, go }) {
    const c = comp.competition.id;
    const which = args[0] && (args[0] === 'overall' || comp.wods.some((w) => w.id === args[0])) ? args[0] : 'overall';
    const wanted = args[1] ?? '';
    const wodSel = h('select', { id: 'lb-wod' },
        h('option', { value: 'overall' }, 'Overall'),
        comp.wods.map((w) => h('option', { value: w.id }, w.name)));
    wodSel.value = which;
    const divSel = h('select', { id: 'lb-division' }, h('option', { value: '' }, 'All divisions'));
    const body = h('div', { class: 'boards' });
    root.append(
        h('h2', {}, 'Leaderboards'),
        h('div', { class: 'controls' },
            h('label', {}, 'Leaderboard ', wodSel),
            h('label', {}, 'Division ', divSel),
            which === 'overall' ? wodToggle(body) : null),
        body);
    wodSel.addEventListener('change', () => go(c, 'leaderboard', wodSel.value, divSel.value));
    divSel.addEventListener('change', () => go(c, 'leaderboard', wodSel.value, divSel.value));

    async function load() {
        const all = divisionsOf(comp.spots);
        const names = all.map((d) => divisionName({ division: d }));
        append(clear(divSel), [h('option', { value: '' }, 'All divisions'),
                               names.map((n) => h('option', { value: n }, n))]);
        divSel.value = names.includes(wanted) ? wanted : '';
        // one named division: only its leaderboard is asked for
        const one = all[names.indexOf(divSel.value)];
        const board = await fetchBoard(c, which, divSel.value && one !== null ? one : undefined);
        const divs = board.divisions.filter((d) => !divSel.value || divisionName(d) === divSel.value);
        clear(body).append(...divs.map((d) => h('div', { class: 'scroll' }, boardTable(board, d, comp))));
        if (!divs.length) body.append(h('p', { class: 'note' }, 'No team yet.'));
    }
    await load();
    return { refresh: () => load() };
}

const PAGE = 10;         // rows per slide
const SLIDE_MS = 10000;  // time per slide

export async function bigScreenView({ root, comp, args }) {
    const c = comp.competition.id;
    const which = args[0] && (args[0] === 'overall' || comp.wods.some((w) => w.id === args[0])) ? args[0] : 'overall';
    const title = which === 'overall' ? 'Overall' : comp.wods.find((w) => w.id === which).name;
    let board = null;
    let slides = [];
    let index = 0;
    let paused = false;
    const stage = h('div', { class: 'stage', 'aria-live': 'polite' });
    const full = h('button', { type: 'button', class: 'fs' }, 'Full screen');
    const hint = h('p', { class: 'hint' }, '← → change division · Space pause · F full screen');
    // (loaded here: the phone's view uses this module, not the running heats)
    const { runningPanel } = await import('./heats.js');
    const running = runningPanel(comp);
    root.append(h('h2', { class: 'sr' }, 'Big screen'), h('div', { class: 'big-tools' }, full, hint),
                h('div', { class: 'big-layout' }, stage, running.el));
    full.addEventListener('click', () => toggleFull());

    function toggleFull() {
        if (document.fullscreenElement) document.exitFullscreen();
        else document.documentElement.requestFullscreen?.().catch(() => {});
    }

    function buildSlides() {
        const key = slides[index]?.key;
        slides = [];
        for (const d of board.divisions) {
            const pages = Math.max(1, Math.ceil(d.entries.length / PAGE));
            for (let p = 0; p < pages; p++) {
                slides.push({ key: `${divisionName(d)}#${p}`, div: d, page: p, pages,
                              rows: d.entries.slice(p * PAGE, (p + 1) * PAGE) });
            }
        }
        const again = slides.findIndex((s) => s.key === key);
        index = again >= 0 ? again : 0;
    }

    function show() {
        clear(stage);
        const s = slides[index];
        if (!s) {
            stage.append(h('p', { class: 'note' }, 'No team yet.'));
            return;
        }
        stage.append(
            h('div', { class: 'slide-head' },
                h('p', { class: 'slide-title' }, `${divisionName(s.div)} · ${title}`),
                h('p', { class: 'slide-count' }, s.pages > 1 ? `${s.page + 1}/${s.pages}` : '',
                  paused ? ' ⏸' : '')),
            boardTable(board, s.div, comp, { big: true, rows: s.rows }));
    }

    function step(n) {
        if (!slides.length) return;
        index = (index + n + slides.length) % slides.length;
        show();
    }

    const onKey = (e) => {
        if (e.target.closest && e.target.closest('input, select, textarea')) return;
        if (e.key === 'ArrowRight') step(1);
        else if (e.key === 'ArrowLeft') step(-1);
        else if (e.key === ' ') { paused = !paused; show(); e.preventDefault(); }
        else if (e.key === 'f' || e.key === 'F') toggleFull();
        else return;
        restart();
    };
    let timer = null;
    const restart = () => {
        clearInterval(timer);
        timer = setInterval(() => { if (!paused) step(1); }, SLIDE_MS);
    };

    async function load() {
        board = await fetchBoard(c, which);
        buildSlides();
        show();
    }
    await Promise.all([load(), running.load()]);
    document.addEventListener('keydown', onKey);
    restart();
    return {
        refresh: (changes) => Promise.all([load(), running.refresh(changes)]),
        dispose() {
            clearInterval(timer);
            document.removeEventListener('keydown', onKey);
            if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
        },
    };
}
