// judge.js: an editor enters the scores of one heat, lane by lane.
//
// Each lane is read on its own (GET .../voie/{v}) for its ETag, and every write sends
// it back in If-Match: when another judge changed the lane in between, the API answers
// 412 and the page asks to reload the lane instead of overwriting their entry.  A
// lane nobody is typing in follows live changes (read again, with its new ETag); a
// lane being typed in keeps the ETag it was opened with.

import * as api from './api.js';
import { h, clear, newId } from './dom.js';
import { localTime, SCORE_HINT, STATUS_TEXT } from './format.js';

export async function judgeView({ root, comp, args, go }) {
    const c = comp.competition.id;
    const { heats } = await api.get(`competition/${c}/heat/`);
    const zoned = heats.filter((x) => x.zone_id !== null);   // lanes are written under a zone
    const heatId = zoned.some((x) => x.id === args[0]) ? args[0] : null;
    const wodOf = (x) => comp.wods.find((w) => w.id === x.wod_id);
    const label = (x) => `Heat ${x.number} · ${wodOf(x)?.name ?? 'No WOD'} · ${STATUS_TEXT[x.status] ?? x.status} · ${localTime(x.start_time, comp.competition.timezone)}`;

    const pickSel = h('select', { id: 'judge-heat' }, h('option', { value: '' }, 'Choose a heat…'),
        comp.zones.map((z) => h('optgroup', { label: z.name },
            zoned.filter((x) => x.zone_id === z.id).map((x) => h('option', { value: x.id }, label(x))))));
    pickSel.value = heatId ?? '';
    pickSel.addEventListener('change', () => go(c, 'judge', ...(pickSel.value ? [pickSel.value] : [])));
    const body = h('div', { class: 'judge' });
    root.append(h('h2', {}, 'Judge'), h('div', { class: 'controls' }, h('label', {}, 'Heat ', pickSel)), body);
    if (!heatId) {
        body.append(h('p', { class: 'note' }, 'Choose a heat to enter its scores.'));
        return {};
    }

    const heat = zoned.find((x) => x.id === heatId);
    const wod = wodOf(heat);
    const base = `competition/${c}/zone/${heat.zone_id}/heat/${heat.id}/voie/`;
    const rows = new Map();   // lane id -> row state

    const { voies } = await api.get(base);
    const lanes = await Promise.all(voies.map(async (v) => {
        const res = await api.call(base + v.id);
        return res.ok ? { lane: res.data.voie, etag: res.etag } : { lane: v, etag: null };
    }));

    // A reader may look but not write: history is for editors only.
    let readOnly = false;
    if (voies.length) {
        const probe = await api.call(`${base}${voies[0].id}/history`);
        readOnly = probe.status === 403;
    }
    if (readOnly) body.append(h('p', { class: 'note', role: 'note' }, 'This login may read only: log in as an editor (judge) to enter scores.'));

    const table = h('table', { class: 'judge-table' },
        h('caption', {}, label(heat)),
        h('thead', {}, h('tr', {},
            h('th', { scope: 'col' }, 'Lane'), h('th', { scope: 'col' }, 'Team'),
            h('th', { scope: 'col' }, 'Division'), h('th', { scope: 'col' }, 'Score'),
            h('th', { scope: 'col' }, 'Tiebreak'), h('th', { scope: 'col' }, h('span', { class: 'sr' }, 'Save')))),
        h('tbody', {}, lanes.map(({ lane, etag }) => laneRow(lane, etag))));
    body.append(h('p', { class: 'note' }, `Score: ${wod ? SCORE_HINT[wod.scoring] : 'free text'}; tiebreak: a time like 1:02.5. Enter saves a lane.`),
                h('div', { class: 'scroll' }, table));
    if (!voies.length) body.append(h('p', { class: 'note' }, 'No lane in this heat.'));

    function laneRow(lane, etag) {
        const ids = { score: newId('score'), tie: newId('tie'), sMsg: newId('smsg'), tMsg: newId('tmsg'), msg: newId('msg') };
        const score = h('input', { id: ids.score, name: 'score', autocomplete: 'off', spellcheck: 'false',
                                   'aria-label': `Score, lane ${lane.number}`, 'aria-describedby': ids.sMsg,
                                   placeholder: wod ? SCORE_HINT[wod.scoring] : '', disabled: readOnly });
        const tie = h('input', { id: ids.tie, name: 'tiebreak', autocomplete: 'off', spellcheck: 'false',
                                 'aria-label': `Tiebreak, lane ${lane.number}`, 'aria-describedby': ids.tMsg,
                                 placeholder: '1:02.5', disabled: readOnly });
        const save = h('button', { type: 'button', disabled: readOnly }, 'Save');
        const sMsg = h('p', { id: ids.sMsg, class: 'field-msg', role: 'alert' });
        const tMsg = h('p', { id: ids.tMsg, class: 'field-msg', role: 'alert' });
        const msg = h('div', { id: ids.msg, class: 'row-msg', role: 'status' });
        const tr = h('tr', { dataset: { laneId: lane.id } },
            h('td', { class: 'num' }, lane.number),
            h('th', { scope: 'row', class: 'team' }, lane.spot_name ?? '—'),
            h('td', {}, comp.spots.get(lane.spot_id)?.division ?? ''),
            h('td', {}, score, sMsg),
            h('td', {}, tie, tMsg),
            h('td', {}, save, msg));
        const row = { lane, etag, tr, score, tie, save, sMsg, tMsg, msg, dirty: false, busy: false };
        rows.set(lane.id, row);
        fill(row);
        const touched = () => { row.dirty = true; };
        score.addEventListener('input', touched);
        tie.addEventListener('input', touched);
        const onEnter = (e) => { if (e.key === 'Enter') { e.preventDefault(); submit(row); } };
        score.addEventListener('keydown', onEnter);
        tie.addEventListener('keydown', onEnter);
        save.addEventListener('click', () => submit(row));
        return tr;
    }

    function fill(row) {
        row.score.value = row.lane.score ?? '';
        row.tie.value = row.lane.tiebreak ?? '';
        row.dirty = false;
    }

    function say(row, text, kind, ...extra) {
        clear(row.msg).append(h('span', { class: kind }, text), ...extra);
        row.tr.dataset.state = kind;
    }

    function fieldError(row, message) {
        for (const [input, out] of [[row.score, row.sMsg], [row.tie, row.tMsg]]) {
            input.removeAttribute('aria-invalid');
            out.textContent = '';
        }
        if (!message) return;
        const onTie = /^Invalid body: tiebreak/.test(message);
        const [input, out] = onTie ? [row.tie, row.tMsg] : [row.score, row.sMsg];
        input.setAttribute('aria-invalid', 'true');
        out.textContent = message;
    }

    async function reload(row) {
        const res = await api.call(base + row.lane.id);
        if (!res.ok) {
            say(row, res.status === 404 ? 'This lane no longer exists.' : `Cannot read the lane (${res.data?.message ?? res.status}).`, 'error');
            return false;
        }
        row.lane = res.data.voie;
        row.etag = res.etag;
        fill(row);
        fieldError(row, null);
        return true;
    }

    async function submit(row) {
        if (row.busy || readOnly) return;
        row.busy = true;
        row.save.disabled = true;
        const entry = { score: row.score.value.trim() || null, tiebreak: row.tie.value.trim() || null };
        say(row, 'Saving…', 'pending');
        try {
            const headers = row.etag ? { 'If-Match': row.etag } : {};
            const res = await api.call(base + row.lane.id, { method: 'PUT', body: entry, headers });
            if (res.ok) {
                row.lane = res.data.voie;
                row.etag = res.etag;
                if (!row.etag) {
                    // an answer without the lane's ETag: read it back for the next write
                    const again = await api.call(base + row.lane.id);
                    if (again.ok) row.etag = again.etag;
                }
                fill(row);
                fieldError(row, null);
                say(row, 'Saved', 'ok');
            } else if (res.status === 400) {
                fieldError(row, res.data?.message ?? 'Invalid entry');
                say(row, 'Not saved', 'error');
            } else if (res.status === 412) {
                fieldError(row, null);
                const btn = h('button', { type: 'button', class: 'reload' }, 'Reload lane');
                btn.addEventListener('click', async () => {
                    if (await reload(row)) {
                        say(row, `Reloaded. Your entry was: ${entry.score ?? '(empty)'}${entry.tiebreak ? ` / ${entry.tiebreak}` : ''}. Check it and save again.`, 'warn');
                        row.score.focus();
                    }
                });
                say(row, 'Another judge changed this lane since you opened it: not saved. Reload it before entering your score.', 'conflict', ' ', btn);
                btn.focus();
            } else if (res.status === 403) {
                say(row, 'This login may not enter scores.', 'error');
            } else if (res.status === 404) {
                say(row, 'This lane no longer exists.', 'error');
            } else if (res.status !== 401) {
                say(row, `Not saved: ${res.data?.message ?? `HTTP ${res.status}`}`, 'error');
            }
        } catch (e) {
            say(row, `Not saved: the network failed (${e.message}). Try again.`, 'error');
        } finally {
            row.busy = false;
            row.save.disabled = false;
        }
    }

    return {
        async refresh(changes) {
            const resync = changes.some((ch) => ch.resync);
            for (const row of rows.values()) {
                const mine = changes.filter((ch) => ch.heat_id === heat.id &&
                                                    (ch.voie?.id ?? ch.lane_id) === row.lane.id);
                if (!resync && !mine.length) continue;
                const last = mine[mine.length - 1];
                if (last && last.action === 'delete') {
                    say(row, 'This lane was deleted.', 'error');
                    continue;
                }
                if (row.busy) continue;
                if (row.dirty) {
                    if (last && last.voie && (last.voie.score !== row.lane.score || last.voie.tiebreak !== row.lane.tiebreak)) {
                        say(row, `Changed elsewhere to ${last.voie.score ?? '(empty)'}: saving will ask you to reload.`, 'warn');
                    }
                    continue;
                }
                await reload(row);
            }
        },
    };
}
