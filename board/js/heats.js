// heats.js: per zone, the running heats and the next ones, with their lanes.

import * as api from './api.js';
import { h, clear } from './dom.js';
import { localTime, STATUS_TEXT } from './format.js';

const NEXT = 2;   // scheduled heats shown per zone after the running ones

// The heats to show for one zone: running ones, then the next scheduled; when none,
// the last finished one.
function pick(heats) {
    const running = heats.filter((x) => x.status === 'running');
    const next = heats.filter((x) => x.status === 'scheduled').slice(0, NEXT);
    if (running.length || next.length) return [...running, ...next];
    const finished = heats.filter((x) => x.status === 'finished');
    return finished.slice(-1);
}

export async function heatsView({ root, comp }) {
    const c = comp.competition.id;
    const body = h('div', { class: 'heats' });
    root.append(h('h2', {}, 'Heats'), body);
    const wodName = (id) => comp.wods.find((w) => w.id === id)?.name || 'No WOD';
    let shown = new Set();

    async function load() {
        const { heats } = await api.get(`competition/${c}/heat/`);
        const groups = comp.zones.map((z) => ({ zone: z, heats: heats.filter((x) => x.zone_id === z.id) }));
        const loose = heats.filter((x) => x.zone_id === null);
        if (loose.length) groups.push({ zone: null, heats: loose });
        const chosen = groups.map((g) => ({ ...g, heats: pick(g.heats) }));
        const lanes = new Map();
        await Promise.all(chosen.flatMap((g) => g.heats).map(async (x) => {
            lanes.set(x.id, (await api.get(`competition/${c}/heat/${x.id}/line/`)).lines);
        }));
        shown = new Set(chosen.flatMap((g) => g.heats.map((x) => x.id)));
        const out = [];
        for (const g of chosen) {
            const sec = h('section', { class: 'zone', 'aria-label': g.zone ? g.zone.name : 'No zone' },
                h('h3', {}, g.zone ? g.zone.name : 'No zone'));
            if (!g.heats.length) sec.append(h('p', { class: 'note' }, 'No heat.'));
            for (const x of g.heats) sec.append(h('div', { class: 'scroll' }, heatTable(x, lanes.get(x.id) || [])));
            out.push(sec);
        }
        if (!out.length) out.push(h('p', { class: 'note' }, 'No heat in this competition.'));
        clear(body).append(...out);
    }

    function heatTable(x, lanes) {
        return h('table', { class: `heat status-${x.status}`, dataset: { heatId: x.id } },
            h('caption', {},
                h('span', { class: 'badge', dataset: { status: x.status } }, STATUS_TEXT[x.status] || x.status),
                ` Heat ${x.number} · ${wodName(x.wod_id)} · ${localTime(x.start_time, comp.competition.timezone)}`),
            h('thead', {}, h('tr', {},
                h('th', { scope: 'col' }, 'Lane'), h('th', { scope: 'col' }, 'Team'),
                h('th', { scope: 'col', class: 'div-col' }, 'Division'), h('th', { scope: 'col' }, 'Score'),
                h('th', { scope: 'col', class: 'tb-col' }, 'Tiebreak'))),
            h('tbody', {}, lanes.map((l) => h('tr', { dataset: { laneId: l.id } },
                h('td', { class: 'num' }, l.number),
                h('th', { scope: 'row', class: 'team' }, l.spot_name ?? '—'),
                h('td', { class: 'div-col' }, comp.spots.get(l.spot_id)?.division ?? ''),
                h('td', { class: 'score' }, l.score ?? ''),
                h('td', { class: 'score tb-col' }, l.tiebreak ?? '')))));
    }

    await load();
    // before the API's Part 3 the stream carries lane changes only: a heat that
    // starts or ends is seen by this reload every minute
    const every = setInterval(() => load().catch(() => {}), 60000);
    return {
        async refresh(changes) {
            if (changes.some((ch) => ch.resync || shown.has(ch.heat_id) || ch.resource === 'heat'
                                     || ch.resource === 'zone')) await load();
        },
        dispose() { clearInterval(every); },
    };
}

// The big screen's side panel: the running heat(s) of each zone, with their lanes
// (number, team, score).  Hidden while no heat runs.  A heat started or finished
// (an "event: change" of a heat, API.md Part 3) or a lane of a shown heat changed
// reads the panel again.
export function runningPanel(comp) {
    const c = comp.competition.id;
    const el = h('aside', { class: 'running', 'aria-label': 'Running heats', hidden: true });
    const wodName = (id) => comp.wods.find((w) => w.id === id)?.name || 'No WOD';
    let shown = new Set();

    async function load() {
        const { heats } = await api.get(`competition/${c}/heat/?status=running`);
        const lanes = new Map();
        await Promise.all(heats.map(async (x) => {
            lanes.set(x.id, (await api.get(`competition/${c}/heat/${x.id}/line/`)).lines);
        }));
        const zones = [...comp.zones, null];
        const out = [];
        for (const z of zones) {
            const mine = heats.filter((x) => x.zone_id === (z ? z.id : null));
            if (!mine.length) continue;
            out.push(h('section', { class: 'zone', dataset: { zoneId: z ? z.id : '' } },
                h('h3', {}, z ? z.name : 'No zone'),
                mine.map((x) => h('table', { class: 'run-heat', dataset: { heatId: x.id } },
                    h('caption', {}, h('span', { class: 'badge', dataset: { status: 'running' } }, 'running'),
                      ` Heat ${x.number} · ${wodName(x.wod_id)}`),
                    h('tbody', {}, (lanes.get(x.id) || []).map((l) => h('tr', { dataset: { laneId: l.id } },
                        h('td', { class: 'num' }, l.number),
                        h('th', { scope: 'row', class: 'team' }, l.spot_name ?? '—'),
                        h('td', { class: 'score' }, l.score ?? ''))))))));
        }
        shown = new Set(heats.map((x) => x.id));
        clear(el).append(h('h2', { class: 'run-title' }, 'Running now'), ...out);
        el.hidden = out.length === 0;
    }

    return {
        el,
        load,
        async refresh(changes) {
            if (changes.some((ch) => ch.resync || ch.resource === 'heat' || ch.resource === 'zone'
                                     || ch.resource === 'wod' || shown.has(ch.heat_id))) await load();
        },
    };
}
