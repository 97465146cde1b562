// org_validate.js: the head judge's validation.  The count of scores that wait
// (score_status "entered"), in all and per heat, follows the event stream; a heat's
// lanes show each entered score beside the lane's history (who entered what, when),
// with a button that validates one lane (If-Match: the lane as shown here, so that a
// score changed meanwhile is not validated unseen) and one that validates the heat.

import { h, clear, api, write, run, say, msg, plural } from './org.js';
import { localTime, STATUS_TEXT } from './format.js';

const WHEN = (iso, tz) => {
    const d = new Date(iso);
    if (Number.isNaN(d.getTime())) return iso;
    try {
        return new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit',
                                                    timeZone: tz || undefined }).format(d);
    } catch {
        return d.toLocaleTimeString();
    }
};

export async function validateView({ root, comp, args }) {
    const c = comp.competition.id;
    const tz = comp.competition.timezone;
    let heats = [];
    const lines = new Map();        // heat id -> its lanes (full view)
    const count = h('p', { id: 'org-waiting', class: 'org-waiting', role: 'status', 'aria-live': 'polite' });
    const nav = h('ul', { class: 'org-heat-pick', id: 'org-heat-pick' });
    const panel = h('div', { class: 'org-validate', id: 'org-validate' });
    const pub = comp.competition.publication === 'validated'
        ? 'Scores reach the public once validated.'
        : 'This competition publishes every score at once (publication: immediate); validation marks it checked.';
    root.append(h('div', { class: 'org-head' }, h('h2', {}, 'Validation'), count),
                h('p', { class: 'sub' }, pub), h('div', { class: 'org-columns' }, h('nav', { 'aria-label': 'Heats' }, nav), panel));
    let heatId = args[0] ?? null;
    let shownLanes = [];            // [{lane, etag, history}] of the selected heat
    let shownJson = null;           // what its table was drawn from
    let note = null;                // the outcome of the last validation, shown after the redraw

    const waiting = (id) => (lines.get(id) ?? []).filter((l) => l.score_status === 'entered').length;
    const wodName = (id) => comp.wods.find((w) => w.id === id)?.name ?? 'No WOD';
    const zoneName = (id) => comp.zones.find((z) => z.id === id)?.name ?? 'No zone';
    const heatLabel = (x) => `Heat ${x.number} · ${wodName(x.wod_id)} · ${zoneName(x.zone_id)}`;

    async function loadLines(x) {
        const res = await api.call(`competition/${c}/heat/${x.id}/line/`);
        if (res.ok) lines.set(x.id, res.data.lines);
    }

    async function loadAll() {
        heats = (await api.get(`competition/${c}/heat/`)).heats.filter((x) => x.zone_id !== null);
        await Promise.all(heats.map(loadLines));
        drawCount();
        if (!heatId) heatId = heats.find((x) => waiting(x.id))?.id ?? null;
        await loadHeat();
    }

    function drawCount() {
        const total = heats.reduce((n, x) => n + waiting(x.id), 0);
        const inHeats = heats.filter((x) => waiting(x.id)).length;
        count.dataset.count = total;
        count.textContent = total ? `${plural(total, 'score waits', 'scores wait')} for validation` +
                                    ` (${plural(inHeats, 'heat', 'heats')})` : 'Nothing waits for validation.';
        clear(nav).append(...heats.map((x) => {
            const n = waiting(x.id);
            const a = h('a', { href: `#/c/${c}/validate/${x.id}`, dataset: { heatId: x.id },
                               'aria-current': x.id === heatId ? 'page' : null },
                heatLabel(x), ' ', h('span', { class: 'badge', dataset: { status: x.status } }, STATUS_TEXT[x.status] ?? x.status),
                n ? h('span', { class: 'org-count', dataset: { n } }, ` ${n} to validate`) : null);
            return h('li', {}, a);
        }));
        if (!heats.length) nav.append(h('li', { class: 'note' }, 'No heat yet.'));
    }

    // The heat is drawn again only when what it shows changed (the organizer's own
    // validation and its event both read it again: the second draws nothing); a read
    // that ends after a later one is dropped.
    let seq = 0;
    let latest = 0;
    async function loadHeat() {
        const my = ++seq;
        const x = heats.find((y) => y.id === heatId);
        if (!x) {
            clear(panel).append(h('p', { class: 'note' }, heats.length ? 'Choose a heat.' : ''));
            return;
        }
        const base = `competition/${c}/zone/${x.zone_id}/heat/${x.id}/voie/`;
        const { voies } = await api.get(base);
        const read = await Promise.all(voies.map(async (v) => {
            const [one, hist] = await Promise.all([api.call(base + v.id), api.call(`${base}${v.id}/history`)]);
            return { lane: one.ok ? one.data.voie : v, etag: one.ok ? one.etag : null,
                     history: hist.ok ? hist.data.history : null };
        }));
        if (my < latest) return;
        latest = my;
        shownLanes = read;
        lines.set(x.id, shownLanes.map((s) => s.lane));
        drawCount();
        const j = JSON.stringify([x, shownLanes]);
        if (j !== shownJson) {
            shownJson = j;
            drawHeat(x, base);
        }
        if (note) say(panel.querySelector('#org-validate-msg'), ...note);
        note = null;
    }

    function drawHeat(x, base) {
        const out = msg({ id: 'org-validate-msg' });
        if (note) say(out, ...note);
        note = null;
        const n = waiting(x.id);
        const all = h('button', { type: 'button', id: 'org-validate-all', class: 'primary', disabled: !n },
                      n ? `Validate all (${n})` : 'Validate all');
        all.addEventListener('click', () => run(all, out, () => write(`competition/${c}/zone/${x.zone_id}/heat/${x.id}/validate`),
                                                 () => { note = [`Heat ${x.number} validated.`, 'ok']; return loadHeat(); }, 'Validated.'));
        clear(panel).append(
            h('div', { class: 'org-head' }, h('h3', {}, heatLabel(x)), all),
            h('p', { class: 'sub' }, `${STATUS_TEXT[x.status] ?? x.status}${x.start_time ? ` · ${localTime(x.start_time, tz)}` : ''}`),
            out,
            h('div', { class: 'scroll' }, h('table', { class: 'org-table org-lanes-validate', dataset: { heatId: x.id } },
                h('thead', {}, h('tr', {}, ['Lane', 'Team', 'Score', 'Tiebreak', 'Status', 'History', ''].map((t) => h('th', { scope: 'col' }, t)))),
                h('tbody', {}, shownLanes.map((s) => laneRow(s, base, out))))));
    }

    function laneRow({ lane: l, etag, history }, base, out) {
        const st = l.score_status;
        const btn = st === 'entered' ? h('button', { type: 'button', class: 'validate' }, 'Validate') : null;
        btn?.addEventListener('click', async () => {
            const res = await run(btn, out, () => write(`${base}${l.id}/validate`, { headers: etag ? { 'If-Match': etag } : {} }),
                                  () => { note = [`Lane ${l.number} validated.`, 'ok']; return loadHeat(); }, `Lane ${l.number} validated.`);
            if (res?.status === 412) {
                note = [`Lane ${l.number} changed since it was shown: not validated. Look at it again.`, 'warn'];
                await loadHeat();
            }
        });
        return h('tr', { dataset: { laneId: l.id, status: st ?? 'none' } },
            h('td', { class: 'num' }, l.number),
            h('th', { scope: 'row', class: 'team' }, l.spot_name ?? '—'),
            h('td', { class: 'score' }, l.score ?? '—'),
            h('td', { class: 'score' }, l.tiebreak ?? ''),
            h('td', {}, h('span', { class: 'org-status', dataset: { status: st ?? 'none' } },
                          st === 'entered' ? 'waits' : st === 'validated' ? 'validated' : 'no score')),
            h('td', { class: 'org-history' }, historyList(history)),
            h('td', {}, btn));
    }

    function historyList(history) {
        if (history === null) return h('span', { class: 'sub' }, 'history unavailable');
        if (!history.length) return h('span', { class: 'sub' }, '—');
        return h('ol', { class: 'org-hist' }, history.map((r) => h('li', { dataset: { action: r.action } },
            h('time', { datetime: r.at }, WHEN(r.at, tz)), ' ', r.user, ' ',
            r.action === 'validate' ? 'validated' : r.action === 'delete' ? 'deleted' : r.action === 'create' ? 'created' : 'entered',
            r.action === 'update' || r.action === 'create'
                ? h('span', { class: 'score' }, ` ${r.after?.score ?? '(empty)'}${r.after?.tiebreak ? ` / ${r.after.tiebreak}` : ''}`)
                : null)));
    }

    await loadAll();
    return {
        async refresh(changes) {
            if (changes.some((ch) => ch.resync || ch.resource === 'heat' || ch.resource === 'wod' || ch.resource === 'zone')) {
                await loadAll();
                return;
            }
            const touched = new Set(changes.map((ch) => ch.heat_id).filter(Boolean));
            await Promise.all(heats.filter((x) => touched.has(x.id) && x.id !== heatId).map(loadLines));
            if (touched.has(heatId)) await loadHeat();
            else drawCount();
        },
    };
}
