// org_heats.js: the organizer's heat plan: per zone, the heats (number, WOD, time,
// status) with one button that starts or finishes each; a heat's number, time and
// zone changed in place; its lanes: a team moved to another lane (swapped with the
// team there when neither has a score), a no-show removed, a late team added.  The
// generation of a WOD's heats (org_generate.js) sits above.  Follows live changes.

import { h, clear, api, write, run, say, msg, twoStep, select, intOrNull, toLocalInput, fromLocalInput,
         tzNote, plural } from './org.js';
import { localTime, STATUS_TEXT } from './format.js';
import { generatePanel } from './org_generate.js';

const NEXT_STATUS = { scheduled: ['running', 'Start'], running: ['finished', 'Finish'], finished: ['running', 'Reopen'] };

export async function planView({ root, comp }) {
    const c = comp.competition.id;
    const tz = comp.competition.timezone;
    const open = new Set();         // heats whose lanes are shown
    const editing = new Set();      // heats whose fields are being edited
    const lanesOf = new Map();      // heat id -> lanes (variant A, full view)
    let heats = [];
    let shownJson = null;           // what the list was drawn from
    const notes = new Map();        // heat id (or 'lanes <id>') -> the outcome of the last change, shown after the redraw
    const noted = (key, out) => {
        out.dataset.note = key;
        if (notes.has(key)) say(out, notes.get(key), 'ok');
        notes.delete(key);
        return out;
    };
    // after a change: the list again; its outcome in the row drawn again, or in the
    // row as it is when the list was drawn already (its event came first)
    const then = (key, text) => async () => {
        notes.set(key, text);
        await load();
        if (!notes.has(key)) return;
        const el = [...list.querySelectorAll('[data-note]')].find((e) => e.dataset.note === key);
        if (el) say(el, text, 'ok');
        notes.delete(key);
    };
    const list = h('div', { class: 'org-heats', id: 'org-heats' });
    const gen = generatePanel({ comp, onCreated: () => load() });
    const wodFilter = select('wod-filter', [['', 'All WODs'], ...comp.wods.map((w) => [w.id, w.name])], '');
    wodFilter.id = 'org-wod-filter';
    wodFilter.addEventListener('change', () => draw());
    root.append(h('h2', {}, 'Heat plan'), gen.box,
        h('section', { class: 'org-section', 'aria-labelledby': 'org-heats-title' },
            h('div', { class: 'org-head' }, h('h3', { id: 'org-heats-title' }, 'Heats'),
              h('label', {}, 'Show ', wodFilter)), list));

    const wodName = (id) => comp.wods.find((w) => w.id === id)?.name ?? 'No WOD';
    const heatBase = (x) => `competition/${c}/zone/${x.zone_id}/heat/${x.id}`;

    // The list is drawn again only when what it shows changed: the organizer's own
    // change and its event both read it again, and the second finds nothing new (no
    // redraw under the pointer).  A read that ends after a later one is dropped.
    let seq = 0;
    let latest = 0;
    async function load() {
        const my = ++seq;
        const hs = (await api.get(`competition/${c}/heat/`)).heats;
        const lanes = await Promise.all(hs.filter((x) => open.has(x.id)).map(async (x) => [x.id, await readLanes(x)]));
        if (my < latest) return;
        latest = my;
        heats = hs;
        for (const [id, l] of lanes) if (l) lanesOf.set(id, l);
        if (JSON.stringify([heats, [...open].map((id) => lanesOf.get(id))]) !== shownJson) draw();
    }

    async function readLanes(x) {
        if (x.zone_id === null) return null;
        const res = await api.call(`${heatBase(x)}/voie/`);
        return res.ok ? res.data.voies : null;
    }
    async function loadLanes(x) {
        const l = await readLanes(x);
        if (l) lanesOf.set(x.id, l);
    }

    function draw() {
        shownJson = JSON.stringify([heats, [...open].map((id) => lanesOf.get(id))]);
        const w = wodFilter.value;
        const out = [];
        for (const z of comp.zones) {
            const mine = heats.filter((x) => x.zone_id === z.id && (!w || x.wod_id === w));
            out.push(h('section', { class: 'zone', dataset: { zoneId: z.id }, 'aria-label': z.name },
                h('h4', {}, `${z.name} · ${plural(z.lane_count, 'lane', 'lanes')}`),
                mine.length ? h('div', { class: 'scroll' }, heatTable(mine)) : h('p', { class: 'note' }, 'No heat.'),
                newHeatForm(z)));
        }
        if (!comp.zones.length) out.push(h('p', { class: 'note' }, 'No zone yet: add one in Setup.'));
        clear(list).append(...out);
    }

    function heatTable(xs) {
        return h('table', { class: 'org-table org-heat-list' },
            h('thead', {}, h('tr', {}, ['Heat', 'WOD', 'Start', 'Status', ''].map((t) => h('th', { scope: 'col' }, t)))),
            xs.map((x) => h('tbody', { dataset: { heatId: x.id }, class: `status-${x.status}` },
                editing.has(x.id) ? editRow(x) : heatRow(x),
                open.has(x.id) ? h('tr', { class: 'org-lanes-row' }, h('td', { colspan: 5 }, lanesPanel(x))) : null)));
    }

    function heatRow(x) {
        const out = noted(x.id, msg());
        const [next, label] = NEXT_STATUS[x.status];
        const go = h('button', { type: 'button', class: `status-btn to-${next}` }, label);
        const done = next === 'running' ? 'Started.' : 'Finished.';
        go.addEventListener('click', () => run(go, out, () => write(heatBase(x), { method: 'PATCH', body: { status: next } }),
                                               then(x.id, done), done));
        const edit = h('button', { type: 'button', class: 'edit' }, 'Edit');
        edit.addEventListener('click', () => { editing.add(x.id); draw(); });
        const lanes = h('button', { type: 'button', class: 'lanes', 'aria-expanded': String(open.has(x.id)) },
                        open.has(x.id) ? 'Hide lanes' : 'Lanes');
        lanes.addEventListener('click', async () => {
            if (open.has(x.id)) open.delete(x.id);
            else {
                open.add(x.id);
                await loadLanes(x);
            }
            draw();
        });
        const del = twoStep('Delete', 'Really delete?', (b) => run(b, out,
            () => write(heatBase(x), { method: 'DELETE' }), () => load(), 'Deleted.'), { class: 'danger delete' });
        return h('tr', { class: 'org-heat' },
            h('th', { scope: 'row', class: 'num' }, x.number),
            h('td', {}, wodName(x.wod_id)),
            h('td', {}, x.start_time ? localTime(x.start_time, tz) : '—'),
            h('td', {}, h('span', { class: 'badge', dataset: { status: x.status } }, STATUS_TEXT[x.status] ?? x.status)),
            h('td', { class: 'org-row-actions' }, go, lanes, edit, del, out));
    }

    function editRow(x) {
        const out = msg();
        const num = h('input', { name: 'number', inputmode: 'numeric', class: 'narrow', value: x.number, 'aria-label': 'Heat number' });
        const when = h('input', { name: 'start_time', type: 'datetime-local', value: toLocalInput(x.start_time, tz),
                                  'aria-label': `Start (${tzNote(comp)})` });
        const zone = select('zone_id', comp.zones.map((z) => [z.id, z.name]), x.zone_id);
        zone.setAttribute('aria-label', 'Zone');
        const wod = select('wod_id', [['', 'No WOD'], ...comp.wods.map((w) => [w.id, w.name])], x.wod_id ?? '');
        wod.setAttribute('aria-label', 'WOD');
        const save = h('button', { type: 'button', class: 'save' }, 'Save');
        const cancel = h('button', { type: 'button', class: 'link' }, 'Cancel');
        cancel.addEventListener('click', () => { editing.delete(x.id); draw(); });
        save.addEventListener('click', () => {
            const body = {};
            const n = intOrNull(num.value);
            if (!Number.isInteger(n) || n < 1) return say(out, 'The heat number is a whole number from 1.', 'error');
            if (n !== x.number) body.number = n;
            const t = fromLocalInput(when.value, tz);
            if (t !== x.start_time) body.start_time = t;
            if (zone.value !== x.zone_id) body.zone_id = zone.value;
            if ((wod.value || null) !== x.wod_id) body.wod_id = wod.value || null;
            if (!Object.keys(body).length) return say(out, 'Nothing changed.', '');
            return run(save, out, () => write(heatBase(x), { method: 'PATCH', body }), () => {
                editing.delete(x.id);
                return then(x.id, 'Saved.')();
            });
        });
        return h('tr', { class: 'org-heat editing' },
            h('th', { scope: 'row' }, num), h('td', {}, wod), h('td', {}, when, h('small', { class: 'sub' }, tzNote(comp))),
            h('td', {}, zone), h('td', { class: 'org-row-actions' }, save, cancel, out));
    }

    function lanesPanel(x) {
        const lanes = lanesOf.get(x.id) ?? [];
        const zone = comp.zones.find((z) => z.id === x.zone_id);
        const count = zone?.lane_count ?? 0;
        const base = `${heatBase(x)}/voie/`;
        const out = noted(`lanes ${x.id}`, msg({ class: 'org-msg org-lanes-msg' }));
        const done = (text) => then(`lanes ${x.id}`, text);
        const byNumber = new Map(lanes.map((l) => [l.number, l]));
        const numbers = Array.from({ length: count }, (_, i) => i + 1);

        async function move(l, to, button) {
            const there = byNumber.get(to);
            if (!there) {
                return run(button, out, () => write(base + l.id, { method: 'PUT', body: { number: to } }), done(`Moved to lane ${to}.`));
            }
            if (l.score !== null || there.score !== null) {
                return say(out, `Lane ${to} is taken and a score is entered: move the other team first.`, 'error');
            }
            // a swap of the two teams: empty one lane, fill the other, fill the first
            return run(button, out, async () => {
                let r = await write(base + l.id, { method: 'PUT', body: { spot_id: null } });
                if (r.ok) r = await write(base + there.id, { method: 'PUT', body: { spot_id: l.spot_id } });
                if (r.ok) r = await write(base + l.id, { method: 'PUT', body: { spot_id: there.spot_id } });
                return r;
            }, done(`Swapped with lane ${to}.`));
        }

        const rows = lanes.map((l) => {
            const to = select('to', numbers.filter((n) => n !== l.number).map((n) => [n, byNumber.has(n) ? `${n} (swap)` : String(n)]));
            to.setAttribute('aria-label', `New lane of ${l.spot_name ?? 'lane ' + l.number}`);
            const mv = h('button', { type: 'button', class: 'move' }, 'Move');
            mv.addEventListener('click', () => move(l, Number(to.value), mv));
            const rm = twoStep('Remove (no-show)', 'Really remove?', (b) => run(b, out,
                () => write(base + l.id, { method: 'DELETE' }), done('Removed.')), { class: 'danger remove' });
            return h('tr', { dataset: { laneId: l.id, number: l.number } },
                h('td', { class: 'num' }, l.number),
                h('th', { scope: 'row', class: 'team' }, l.spot_name ?? '—'),
                h('td', { class: 'sub' }, comp.spots.get(l.spot_id)?.division ?? ''),
                h('td', { class: 'score' }, l.score ?? ''),
                h('td', { class: 'org-row-actions' }, to, mv, rm));
        });

        // a late team: a team not in this heat, on a free lane
        const inHeat = new Set(lanes.map((l) => l.spot_id));
        const free = numbers.filter((n) => !byNumber.has(n));
        const teams = [...comp.spots.values()].filter((s) => !inHeat.has(s.id));
        const who = select('spot', teams.map((s) => [s.id, `${s.name}${s.division ? ` (${s.division})` : ''}`]));
        who.setAttribute('aria-label', 'Team to add');
        const where = select('lane', free.map((n) => [n, String(n)]));
        where.setAttribute('aria-label', 'Its lane');
        const add = h('button', { type: 'button', class: 'add' }, 'Add to the heat');
        add.addEventListener('click', () => run(add, out,
            () => write(base, { body: { number: Number(where.value), spot_id: who.value } }), done('Added.')));

        return h('div', { class: 'org-lanes' },
            h('table', { class: 'org-table' },
                h('caption', { class: 'sr' }, `Lanes of heat ${x.number}`),
                h('thead', {}, h('tr', {}, ['Lane', 'Team', 'Division', 'Score', 'Move / remove'].map((t) => h('th', { scope: 'col' }, t)))),
                h('tbody', {}, rows.length ? rows : h('tr', {}, h('td', { colspan: 5, class: 'note' }, 'No lane.')))),
            free.length && teams.length ? h('div', { class: 'org-actions org-add-lane' }, h('span', {}, 'Late team:'), who, where, add) : null,
            out);
    }

    function newHeatForm(z) {
        const out = msg();
        const used = heats.filter((x) => x.zone_id === z.id).map((x) => x.number);
        const num = h('input', { name: 'number', inputmode: 'numeric', class: 'narrow', value: Math.max(0, ...used) + 1,
                                 'aria-label': `Number of a new heat in ${z.name}` });
        const wod = select('wod_id', [['', 'No WOD'], ...comp.wods.map((w) => [w.id, w.name])], wodFilter.value || comp.wods[0]?.id || '');
        wod.setAttribute('aria-label', 'Its WOD');
        const when = h('input', { name: 'start_time', type: 'datetime-local', 'aria-label': `Its start (${tzNote(comp)})` });
        const add = h('button', { type: 'button', class: 'add' }, 'Add a heat');
        add.addEventListener('click', () => {
            const n = intOrNull(num.value);
            if (!Number.isInteger(n) || n < 1) return say(out, 'The heat number is a whole number from 1.', 'error');
            const body = { number: n };
            if (wod.value) body.wod_id = wod.value;
            const t = fromLocalInput(when.value, tz);
            if (t) body.start_time = t;
            return run(add, out, () => write(`competition/${c}/zone/${z.id}/heat/`, { body }), () => load(), 'Added.');
        });
        return h('div', { class: 'org-actions org-new-heat' }, h('span', {}, 'New heat:'), num, wod, when, add, out);
    }

    await load();
    const busy = () => list.contains(document.activeElement) && document.activeElement.matches('input, select');
    return {
        async refresh(changes) {
            if (changes.some((ch) => ch.resync || ['wod', 'zone', 'spot'].includes(ch.resource))) gen.draw();
            const mine = changes.some((ch) => ch.resync || ['heat', 'zone', 'wod', 'spot'].includes(ch.resource)
                                              || (ch.heat_id && open.has(ch.heat_id)));
            if (mine && !busy() && !editing.size) await load();
        },
    };
}
