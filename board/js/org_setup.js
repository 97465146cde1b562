// org_setup.js: the organizer's setup of a competition: its fields, its WODs
// (scoring, cap, order), its zones and its teams (org_teams.js: the CSV import and the
// list).  Every change goes through the API of part 3 (POST, PATCH, DELETE); the
// lists are read again after each change, and when the event stream says another
// organizer changed them.

import { h, clear, api, write, run, msg, twoStep, flash, settle, competitionForm, newCompetition,
         resourceTable, textCol, intCol, selectCol, capText, capSeconds } from './org.js';
import { teamsSection } from './org_teams.js';

const SCORING = [['time', 'time'], ['reps', 'reps'], ['load', 'load'], ['points', 'points']];

export async function setupView({ root, comp, reopen }) {
    const c = comp.competition.id;
    const compBox = h('section', { class: 'org-section', 'aria-labelledby': 'org-comp-title' });
    const wodBox = h('section', { class: 'org-section', 'aria-labelledby': 'org-wod-title' });
    const zoneBox = h('section', { class: 'org-section', 'aria-labelledby': 'org-zone-title' });
    const teamBox = h('section', { class: 'org-section', 'aria-labelledby': 'org-team-title' });
    const newBox = h('div');
    const newBtn = h('button', { type: 'button', id: 'org-new-competition' }, 'New competition…');
    newBtn.addEventListener('click', () => {
        newBtn.hidden = true;
        clear(newBox).append(newCompetition(reopen, () => { clear(newBox); newBtn.hidden = false; }));
        newBox.querySelector('input[name=name]').focus();
    });
    root.append(h('div', { class: 'org-head' }, h('h2', {}, 'Setup'), newBtn), newBox,
                compBox, wodBox, zoneBox, teamBox);

    // A section is redrawn only when its data changed (the event of the organizer's
    // own change arrives after the section was drawn again), and not while it is
    // being typed in.
    const busy = (box) => box.contains(document.activeElement) && document.activeElement.matches('input, select, textarea');
    const drawn = new Map();
    const changed = (box, data) => {
        const j = JSON.stringify(data);
        if (drawn.get(box) === j) return false;
        drawn.set(box, j);
        return true;
    };
    const isNew = (box, data) => drawn.get(box) !== JSON.stringify(data);
    // after a change: the list drawn again if it changed, else the outcome in its row
    const redraw = (box, data, draw, base) => (isNew(box, data) ? draw() : settle(base, box));

    function drawCompetition() {
        changed(compBox, comp.competition);
        const del = msg();
        clear(compBox).append(
            h('h3', { id: 'org-comp-title' }, 'Competition'),
            competitionForm(() => comp.competition, async (body) => {
                const res = await write(`competition/${c}`, { method: 'PATCH', body });
                if (res.ok) {
                    comp.competition = res.data.competition;
                    // a new name: the header and the competition list show it too
                    if ('name' in body) await reopen(c, 'setup');
                    else changed(compBox, comp.competition);   // the form shows it already
                }
                return res;
            }),
            h('div', { class: 'org-actions' },
                twoStep('Delete this competition', 'Really delete it?', (b) => run(b, del,
                    () => write(`competition/${c}`, { method: 'DELETE' }), () => reopen(null), 'Deleted.'),
                { id: 'org-delete-competition' }), del));
    }

    async function loadWods() {
        comp.wods = (await api.get(`competition/${c}/wod/`)).wods;
        redraw(wodBox, comp.wods, drawWods, `competition/${c}/wod/`);
    }

    function drawWods() {
        changed(wodBox, comp.wods);
        const cols = [
            textCol('name', 'Name', { required: true, nullable: false }),
            selectCol('scoring', 'Scoring', SCORING),
            { key: 'time_cap', label: 'Time cap (m:ss)',
              make: (v) => h('input', { name: 'time_cap', value: capText(v), class: 'narrow', placeholder: 'none' }),
              read: (el) => {
                  const v = capSeconds(el.value);
                  if (Number.isNaN(v) || v === 0) throw new Error('Time cap: m:ss or seconds, or empty for none.');
                  return v;
              } },
            textCol('description', 'Description', { nullable: false }),
        ];
        const table = resourceTable({ caption: 'WODs, in their order', kind: 'wod', cols, items: comp.wods,
                                      base: `competition/${c}/wod/`, after: loadWods, name: (w) => w.name });
        // the order: ↑ / ↓ renumber the WODs 1..n
        for (const tr of table.querySelectorAll('tbody tr[data-id]')) {
            const i = comp.wods.findIndex((w) => w.id === tr.dataset.id);
            const up = h('button', { type: 'button', class: 'move', 'aria-label': `Move ${comp.wods[i].name} up`, disabled: i === 0 }, '↑');
            const down = h('button', { type: 'button', class: 'move', 'aria-label': `Move ${comp.wods[i].name} down`,
                                       disabled: i === comp.wods.length - 1 }, '↓');
            up.addEventListener('click', () => reorder(i, i - 1, up, tr.querySelector('.org-msg')));
            down.addEventListener('click', () => reorder(i, i + 1, down, tr.querySelector('.org-msg')));
            tr.querySelector('.org-row-actions').prepend(up, down);
        }
        clear(wodBox).append(h('h3', { id: 'org-wod-title' }, 'WODs'), table);
    }

    async function reorder(from, to, button, out) {
        const order = [...comp.wods];
        const [w] = order.splice(from, 1);
        order.splice(to, 0, w);
        await run(button, out, async () => {
            let last = { ok: true, status: 200 };
            for (const [k, x] of order.entries()) {
                if (x.position === k + 1) continue;
                last = await write(`competition/${c}/wod/${x.id}`, { method: 'PATCH', body: { position: k + 1 } });
                if (!last.ok) break;
            }
            return last;
        }, () => { flash(`competition/${c}/wod/`, w.id, 'Order saved.'); return loadWods(); }, 'Order saved.');
    }

    async function loadZones() {
        comp.zones = (await api.get(`competition/${c}/zone/`)).zones;
        redraw(zoneBox, comp.zones, drawZones, `competition/${c}/zone/`);
    }

    function drawZones() {
        changed(zoneBox, comp.zones);
        const cols = [textCol('name', 'Name', { required: true, nullable: false }),
                      intCol('lane_count', 'Lanes', { required: true })];
        clear(zoneBox).append(h('h3', { id: 'org-zone-title' }, 'Zones (floors)'),
            resourceTable({ caption: 'Zones and their lanes', kind: 'zone', cols, items: comp.zones,
                            base: `competition/${c}/zone/`, after: loadZones, name: (z) => z.name }));
    }

    drawCompetition();
    drawWods();
    drawZones();
    const teams = await teamsSection({ box: teamBox, comp, onDraw: () => changed(teamBox, [...comp.spots.values()]),
                                       isNew: () => isNew(teamBox, [...comp.spots.values()]) });

    return {
        async refresh(changes) {
            const touched = (r) => changes.some((ch) => ch.resync || ch.resource === r);
            const fresh = (box, data) => !busy(box) && changed(box, data);
            if (touched('competition') && fresh(compBox, comp.competition)) drawCompetition();
            if (touched('wod') && fresh(wodBox, comp.wods)) drawWods();
            if (touched('zone') && fresh(zoneBox, comp.zones)) drawZones();
            if (touched('spot') && fresh(teamBox, [...comp.spots.values()])) teams.draw();
        },
    };
}
