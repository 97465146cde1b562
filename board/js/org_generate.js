// org_generate.js: a WOD's heats from the competition's teams (POST
// .../wod/{w}/generate-heats).  "Preview" sends the request as a dry run and shows
// the heats the API would make; "Create these heats" sends the same request for real.
// Changing the form drops the preview, so that what is created is what was seen.

import { h, clear, write, run, say, msg, field, select, intOrNull, fromLocalInput, tzNote, plural } from './org.js';
import { localTime } from './format.js';

const ORDER = [['ranking', 'by ranking (leaders last)'], ['bib', 'by bib'], ['random', 'random draw']];
const LANE_ORDER = [['ascending', 'lanes 1, 2, 3…'], ['center', 'from the center out']];

export function generatePanel({ comp, onCreated }) {
    const c = comp.competition.id;
    const tz = comp.competition.timezone;
    const box = h('section', { class: 'org-section org-generate', 'aria-labelledby': 'org-gen-title' });
    const form = h('form', { class: 'org-form', novalidate: true, id: 'org-gen-form' });
    const preview = h('div', { class: 'org-preview', id: 'org-gen-preview' });
    const out = msg({ id: 'org-gen-msg' });
    let planned = null;     // the body of the previewed request

    const ids = (k) => (k === 'wod' ? comp.wods : comp.zones).map((x) => x.id);

    let drawnFrom = null;           // the WODs, zones and divisions the form shows
    const source = (divisions) => JSON.stringify([comp.wods, comp.zones, divisions]);
    const divisionsNow = () => [...new Set([...comp.spots.values()].map((s) => s.division))]
        .sort((a, b) => (a === null) - (b === null) || String(a).localeCompare(String(b)));

    function draw() {
        const divisions = divisionsNow();
        drawnFrom = source(divisions);
        // what the organizer chose stays chosen (read before the form is emptied)
        const was = Object.fromEntries([...form.elements].filter((x) => x.name && x.type !== 'checkbox')
                                                          .map((x) => [x.name, x.value]));
        const keep = (k, d) => (k in was && (k !== 'wod' && k !== 'zone' || ids(k).includes(was[k])) ? was[k] : d);
        form.replaceChildren(
            field('WOD', select('wod', comp.wods.map((w) => [w.id, w.name]), keep('wod', comp.wods[0]?.id))),
            field('Zone', select('zone', comp.zones.map((z) => [z.id, `${z.name} (${z.lane_count} lanes)`]), keep('zone', comp.zones[0]?.id))),
            field('Teams per heat', h('input', { name: 'lanes', inputmode: 'numeric', class: 'narrow', value: keep('lanes', ''),
                                                 placeholder: 'all lanes' })),
            field('Seeding', select('order', ORDER, keep('order', 'ranking'))),
            field('Lanes', select('lane_order', LANE_ORDER, keep('lane_order', 'ascending'))),
            field('Only the top', h('input', { name: 'top', inputmode: 'numeric', class: 'narrow', value: keep('top', ''),
                                               placeholder: 'all' }), 'per division'),
            field('First heat at', h('input', { name: 'start', type: 'datetime-local', value: keep('start', '') }), tzNote(comp)),
            field('Minutes between heats', h('input', { name: 'interval', inputmode: 'numeric', class: 'narrow',
                                                        value: keep('interval', '') })),
            field('Draw number', h('input', { name: 'seed', inputmode: 'numeric', class: 'narrow', value: keep('seed', '0') }),
                  'random draw only'),
            h('fieldset', { class: 'org-divisions' }, h('legend', {}, 'Divisions (in this order)'),
                divisions.map((d) => h('label', { class: 'org-check' },
                    h('input', { type: 'checkbox', name: 'division', value: d ?? '', checked: true, dataset: { none: d === null ? '1' : '' } }),
                    d ?? 'No division'))),
            h('label', { class: 'org-check' }, h('input', { type: 'checkbox', name: 'replace' }),
              'Replace the heats this WOD already has in this zone'),
            h('div', { class: 'org-actions' }, h('button', { type: 'submit', id: 'org-gen-preview-btn' }, 'Preview')));
    }

    function body() {
        const e = form.elements;
        const b = { zone_id: e.zone.value, order: e.order.value, lane_order: e.lane_order.value };
        const lanes = intOrNull(e.lanes.value);
        const top = intOrNull(e.top.value);
        const interval = intOrNull(e.interval.value);
        const seed = intOrNull(e.seed.value);
        if (Number.isNaN(lanes) || Number.isNaN(top) || Number.isNaN(interval) || Number.isNaN(seed)) {
            throw new Error('Teams per heat, top, minutes and draw number are whole numbers (or empty).');
        }
        if (lanes !== null) b.lanes = lanes;
        if (top !== null) b.top = top;
        if (interval !== null) b.interval = interval * 60;
        if (b.order === 'random' && seed !== null) b.seed = seed;
        const start = fromLocalInput(e.start.value, tz);
        if (start) b.start_time = start;
        const boxes = [...form.querySelectorAll('input[name=division]')];
        const chosen = boxes.filter((x) => x.checked).map((x) => (x.dataset.none ? null : x.value));
        if (!chosen.length) throw new Error('Choose at least one division.');
        if (chosen.length < boxes.length) b.divisions = chosen;
        if (e.replace.checked) b.replace = true;
        return { wod: e.wod.value, body: b };
    }

    const spotOf = (id) => comp.spots.get(id);
    const zoneOf = (id) => comp.zones.find((z) => z.id === id);

    function showPlan(heats, wodId) {
        const wod = comp.wods.find((w) => w.id === wodId);
        const create = h('button', { type: 'button', id: 'org-gen-confirm', class: 'primary' },
                         `Create these ${plural(heats.length, 'heat', 'heats')}`);
        create.addEventListener('click', () => confirm(create));
        clear(preview).append(
            h('h4', {}, `Preview: ${plural(heats.length, 'heat', 'heats')} of ${wod?.name ?? 'the WOD'} in ${zoneOf(heats[0]?.zone_id)?.name ?? 'the zone'}`),
            h('div', { class: 'org-plan' }, heats.map((x) => h('table', { class: 'org-plan-heat', dataset: { number: x.number } },
                h('caption', {}, `Heat ${x.number}`, x.start_time ? ` · ${localTime(x.start_time, tz)}` : ''),
                h('tbody', {}, x.voies.map((l) => h('tr', {},
                    h('td', { class: 'num' }, l.number),
                    h('th', { scope: 'row', class: 'team' }, spotOf(l.spot_id)?.name ?? l.spot_name ?? '—'),
                    h('td', { class: 'sub' }, spotOf(l.spot_id)?.division ?? ''))))))),
            heats.length ? h('div', { class: 'org-actions' }, create) : h('p', { class: 'note' }, 'No team to seed.'));
    }

    async function confirm(button) {
        if (!planned) return;
        const { wod, body: b } = planned;
        await run(button, out, () => write(`competition/${c}/wod/${wod}/generate-heats`, { body: b }), async (res) => {
            say(out, `${plural(res.data.heats.length, 'heat', 'heats')} created.`, 'ok');
            planned = null;
            clear(preview);
            await onCreated(res.data.heats);
        });
    }

    form.addEventListener('input', () => {
        if (planned) {
            planned = null;
            clear(preview).append(h('p', { class: 'note' }, 'The form changed: preview again.'));
        }
    });
    form.addEventListener('submit', async (ev) => {
        ev.preventDefault();
        let req;
        try { req = body(); } catch (e) { return say(out, e.message, 'error'); }
        if (!req.wod || !req.body.zone_id) return say(out, 'A WOD and a zone are needed first (Setup).', 'error');
        planned = null;
        clear(preview);
        await run(form.querySelector('button[type=submit]'), out,
            () => write(`competition/${c}/wod/${req.wod}/generate-heats`, { body: { ...req.body, dry_run: true } }),
            (res) => {
                planned = req;
                say(out, 'Nothing is created yet: check the preview, then create the heats.', 'ok');
                showPlan(res.data.heats, req.wod);
            }, '');
    });

    draw();
    box.append(h('h3', { id: 'org-gen-title' }, 'Generate heats'), form, out, preview);
    // drawn again only when what it offers changed, and not while it is being filled in
    return { box, draw: () => { if (!form.contains(document.activeElement) && source(divisionsNow()) !== drawnFrom) draw(); } };
}
