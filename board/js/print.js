// print.js: what goes on paper.  #/c/{c}/print/heats/{wod}: the heat sheets of a WOD
// (every zone), one page per heat: WOD, time, zone, heat, its lanes and teams, empty
// boxes for the score, the tiebreak and the signatures.  #/c/{c}/print/results: the
// results, overall then per WOD, per division, as the published view shows them (what
// the public may see: in a competition with publication "validated", the validated
// scores).  #/c/{c}/print: the choice.  The print CSS (board.css, @media print) hides
// everything but the sheets and starts each heat, and each part of the results, on a
// page of its own.

import * as api from './api.js';
import { h, clear } from './dom.js';
import { boardTable, divisionName } from './leaderboard.js';

function when(iso, timeZone) {
    if (!iso) return 'time not set';
    const d = new Date(iso);
    if (Number.isNaN(d.getTime())) return iso;
    const opts = { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' };
    try {
        return new Intl.DateTimeFormat(undefined, { ...opts, timeZone: timeZone || undefined }).format(d);
    } catch {
        return new Intl.DateTimeFormat(undefined, opts).format(d);
    }
}

const capText = (w) => (w.time_cap ? `, cap ${Math.floor(w.time_cap / 60)}:${String(w.time_cap % 60).padStart(2, '0')}` : '');

export async function printView({ root, comp, args, go }) {
    const c = comp.competition.id;
    const what = args[0] === 'heats' || args[0] === 'results' ? args[0] : null;
    const wod = what === 'heats' ? comp.wods.find((w) => w.id === args[1]) ?? null : null;

    const pick = h('select', { id: 'print-what' },
        h('option', { value: '' }, 'Choose what to print…'),
        comp.wods.map((w) => h('option', { value: `heats/${w.id}` }, `Heat sheets: ${w.name}`)),
        h('option', { value: 'results' }, 'Results (overall and per WOD)'));
    pick.value = what === 'results' ? 'results' : wod ? `heats/${wod.id}` : '';
    pick.addEventListener('change', () => go(c, 'print', ...(pick.value ? pick.value.split('/') : [])));
    const printBtn = h('button', { type: 'button', id: 'print-now', disabled: !(what === 'results' || wod) }, 'Print');
    printBtn.addEventListener('click', () => window.print());
    const paper = h('div', { class: 'paper' });
    root.append(h('div', { class: 'print-tools' }, h('h2', {}, 'Print'),
                  h('div', { class: 'controls' }, h('label', {}, 'Print ', pick), printBtn)),
                paper);

    async function load() {
        if (wod) await heatSheets(paper, comp, wod);
        else if (what === 'results') await results(paper, comp);
        else clear(paper).append(h('p', { class: 'note' }, 'Heat sheets (one page per heat, for the judges\' clipboards) or the results.'));
    }
    await load();
    return {
        async refresh(changes) {
            // a heat sheet changes with its heats and lanes, the results with any score
            if (changes.some((ch) => ch.resync || ch.resource !== 'competition')) await load();
        },
    };
}

async function heatSheets(paper, comp, wod) {
    const c = comp.competition.id;
    const tz = comp.competition.timezone;
    const { heats } = await api.get(`competition/${c}/heat/?wod=${encodeURIComponent(wod.id)}`);
    const zoneName = (id) => comp.zones.find((z) => z.id === id)?.name ?? 'No zone';
    heats.sort((a, b) => (a.start_time ?? '\uffff').localeCompare(b.start_time ?? '\uffff')
                         || zoneName(a.zone_id).localeCompare(zoneName(b.zone_id)) || a.number - b.number);
    const lanes = await Promise.all(heats.map(async (x) => (await api.get(`competition/${c}/heat/${x.id}/line/`)).lines));
    const sheets = heats.map((x, i) => h('section', { class: 'sheet', dataset: { heatId: x.id } },
        h('header', { class: 'sheet-head' },
            h('p', { class: 'sheet-comp' }, comp.competition.name),
            h('h3', {}, `${wod.name} · Heat ${x.number}`),
            h('dl', { class: 'sheet-facts' },
                h('dt', {}, 'Time'), h('dd', { dataset: { field: 'time' } }, when(x.start_time, tz)),
                h('dt', {}, 'Zone'), h('dd', { dataset: { field: 'zone' } }, zoneName(x.zone_id)),
                h('dt', {}, 'Scoring'), h('dd', {}, `${wod.scoring}${capText(wod)}`),
                h('dt', {}, 'Sheet'), h('dd', {}, `${i + 1} of ${heats.length}`))),
        h('table', { class: 'sheet-lanes' },
            h('thead', {}, h('tr', {},
                ['Lane', 'Team', 'Division', 'Bib', 'Score', 'Tiebreak', 'Judge', 'Athlete'].map((t) => h('th', { scope: 'col' }, t)))),
            h('tbody', {}, lanes[i].map((l) => h('tr', { dataset: { laneId: l.id } },
                h('td', { class: 'num lane-no' }, l.number),
                h('th', { scope: 'row', class: 'team' }, l.spot_name ?? '—'),
                h('td', {}, comp.spots.get(l.spot_id)?.division ?? ''),
                h('td', { class: 'num' }, comp.spots.get(l.spot_id)?.bib ?? ''),
                h('td', { class: 'box' }), h('td', { class: 'box' }),
                h('td', { class: 'box sign' }), h('td', { class: 'box sign' }))))),
        lanes[i].length ? null : h('p', { class: 'note' }, 'No lane in this heat.'),
        h('p', { class: 'sheet-foot' }, h('span', {}, 'Head judge:'), h('span', { class: 'line' }),
          h('span', {}, 'Signature:'), h('span', { class: 'line' }))));
    clear(paper).append(...sheets);
    if (!sheets.length) paper.append(h('p', { class: 'note' }, `No heat for ${wod.name} yet.`));
}

async function results(paper, comp) {
    const c = comp.competition.id;
    const [overall, ...perWod] = await Promise.all([
        api.get(`competition/${c}/leaderboard?view=published`),
        ...comp.wods.map((w) => api.get(`competition/${c}/wod/${w.id}/leaderboard?view=published`))]);
    const part = (title, board, key) => h('section', { class: 'results-part', dataset: { part: key } },
        h('p', { class: 'sheet-comp' }, comp.competition.name),
        h('h3', {}, title),
        board.divisions.length
            ? board.divisions.map((d) => h('div', { class: 'results-div' }, boardTable(board, d, comp)))
            : h('p', { class: 'note' }, 'No team yet.'));
    clear(paper).append(
        part('Results: overall', overall.leaderboard, 'overall'),
        ...comp.wods.map((w, i) => part(`Results: ${w.name}`, perWod[i].leaderboard, w.id)));
    paper.dataset.divisions = overall.leaderboard.divisions.map(divisionName).join('|');
}
