// judge.js: an editor enters the scores of one heat, lane by lane.
//
// Each lane is read on its own (GET .../voie/{v}) for its ETag, and every write sends
// it back in If-Match: when another judge changed the lane in between, the API answers
// 412 and the page shows a conflict (keep mine / take theirs) instead of overwriting
// their entry.  A lane nobody is typing in follows live changes (read again, with its
// new ETag); a lane being typed in, or whose entry waits in the outbox, keeps the ETag
// it was opened with.  Writes go through the outbox (outbox.js): a save made without
// a connection is queued, shown on its row and in the outbox list, and sent (once)
// when the connection returns.

import * as api from './api.js';
import { h, clear, newId } from './dom.js';
import { localTime, SCORE_HINT, STATUS_TEXT } from './format.js';
import { outbox } from './outbox.js';

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
        const row = { lane, etag, tr, score, tie, save, sMsg, tMsg, msg, dirty: false, entry: null };
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

    // Every save goes through the outbox (outbox.js): kept in IndexedDB, sent with an
    // Idempotency-Key, again when the connection returns; its answer comes back here.
    async function submit(row) {
        if (readOnly) return;
        const entry = { score: row.score.value.trim() || null, tiebreak: row.tie.value.trim() || null };
        row.dirty = false;
        fieldError(row, null);
        const e = await outbox.add({
            path: base + row.lane.id, body: entry, ifMatch: row.etag, competition: c,
            heat: { id: heat.id, number: heat.number, wod: wod?.name ?? null },
            lane: { id: row.lane.id, number: row.lane.number, team: row.lane.spot_name ?? null },
        });
        if (outbox.entries.has(e.key)) showEntry(row, outbox.entries.get(e.key));
    }

    const rowOf = (e) => (e.path.startsWith(base) ? rows.get(e.path.slice(base.length)) : null);
    const typed = (b) => `${b.score ?? '(empty)'}${b.tiebreak ? ` / ${b.tiebreak}` : ''}`;

    // What the outbox holds for a lane, on its row.
    function showEntry(row, e) {
        row.entry = e.key;
        if (e.state === 'queued' || e.state === 'sending') {
            const off = !outbox.online();
            say(row, off ? `Offline: queued, sent when the connection returns (${typed(e.body)}).`
                : e.state === 'sending' ? 'Saving…' : `Queued: ${e.message ?? 'waiting'} (${typed(e.body)}).`,
                off || e.attempts > 0 ? 'queued' : 'pending');
        } else if (e.state === 'conflict') {
            showConflict(row, e);
        } else if (e.state === 'failed') {
            showFailed(row, e);
        }
    }

    function showConflict(row, e) {
        fieldError(row, null);
        const theirs = e.theirs ? `: it now reads ${typed(e.theirs)}` : '';
        const text = e.status === 409
            ? `Not saved: ${e.message}. Yours was ${typed(e.body)}.`
            : `Another judge changed this lane since you opened it${theirs}. Yours: ${typed(e.body)}. Not saved.`;
        say(row, text, 'conflict', ' ', ...resolveButtons(e, row));
        row.tr.querySelector('button.reload')?.focus();
    }

    function showFailed(row, e) {
        if (e.status === 400) {
            fieldError(row, e.message);
            say(row, 'Not saved', 'error');
            outbox.drop(e.key);    // shown beside the field, with the entry still typed
            return;
        }
        say(row, e.status === 403 ? 'This login may not enter scores.'
            : e.status === 404 ? 'This lane no longer exists.' : `Not saved: ${e.message}`, 'error');
    }

    // Keep mine / take theirs, for a conflict (on its row, and in the outbox list).
    function resolveButtons(e, row) {
        const keep = h('button', { type: 'button', class: 'keep' }, 'Keep mine');
        const take = h('button', { type: 'button', class: 'reload' }, 'Take theirs');
        keep.addEventListener('click', () => outbox.keepMine(e.key));
        take.addEventListener('click', async () => {
            await outbox.drop(e.key);
            if (row && await reload(row)) {
                say(row, `Took theirs. Your entry was: ${typed(e.body)}.`, 'warn');
                row.score.focus();
            }
        });
        return [keep, ' ', take];
    }

    function onSent(ev) {
        const { entry: e, res } = ev.detail;
        const row = rowOf(e);
        if (!row) return;
        row.entry = null;
        row.lane = res.data.voie;
        row.etag = res.etag;
        if (!row.etag) api.call(base + row.lane.id).then((again) => { if (again.ok) row.etag = again.etag; });
        if (!row.dirty) fill(row);
        fieldError(row, null);
        say(row, e.replayed ? 'Saved (its answer had been lost: the API replayed it)' : 'Saved', 'ok');
    }
    function onState(ev) {
        const row = rowOf(ev.detail.entry);
        if (row) showEntry(row, ev.detail.entry);
    }
    function onChange() {
        for (const row of rows.values()) {
            const e = row.entry && outbox.entries.get(row.entry);
            if (e && (e.state === 'queued' || e.state === 'sending')) showEntry(row, e);
        }
        drawOutbox();
    }

    // The outbox, as a list: every entry not answered yet (of any heat).
    function drawOutbox() {
        const list = outbox.list();
        const items = list.map((e) => {
            const row = e.heat.id === heat.id ? rowOf(e) : null;
            const what = `Heat ${e.heat.number}${e.heat.wod ? ` (${e.heat.wod})` : ''} · lane ${e.lane.number} · ${e.lane.team ?? '—'}: ${typed(e.body)}`;
            const state = e.state === 'conflict' ? `conflict (${e.theirs ? `now ${typed(e.theirs)}` : e.message})`
                : e.state === 'failed' ? `not saved: ${e.message}`
                : e.state === 'sending' ? 'sending…'
                : !outbox.online() ? 'queued: offline' : `queued${e.message ? `: ${e.message}` : ''}`;
            return h('li', { dataset: { key: e.key, state: e.state, laneId: e.lane.id } },
                h('span', { class: 'what' }, what), ' — ', h('span', { class: 'state' }, state),
                e.state === 'conflict' ? [' ', ...resolveButtons(e, row)] : null,
                e.state === 'failed' ? [' ', h('button', { type: 'button', class: 'dismiss',
                                                          onclick: () => outbox.drop(e.key) }, 'Dismiss')] : null);
        });
        const waiting = list.filter((e) => e.state === 'queued' || e.state === 'sending').length;
        clear(box).append(
            h('h3', {}, 'Outbox'),
            h('p', { class: 'note', dataset: { waiting } },
              list.length === 0 ? 'Every score is sent.'
                  : [waiting ? `${waiting} waiting to be sent${outbox.online() ? '' : ' (offline: sent when the connection returns)'}` : null,
                     list.length > waiting ? `${list.length - waiting} to resolve` : null].filter(Boolean).join(', ') + '.'),
            items.length ? h('ul', {}, items) : null,
            outbox.db ? null : h('p', { class: 'note' }, 'This browser gives the page no IndexedDB: what waits is lost if the page is closed.'));
    }

    const box = h('section', { id: 'outbox', class: 'outbox', 'aria-live': 'polite' });
    body.append(box);
    await outbox.start();
    outbox.addEventListener('sent', onSent);
    outbox.addEventListener('conflict', onState);
    outbox.addEventListener('failed', onState);
    outbox.addEventListener('change', onChange);
    for (const e of outbox.list()) {
        const row = rowOf(e);
        if (!row) continue;
        row.score.value = e.body.score ?? '';
        row.tie.value = e.body.tiebreak ?? '';
        showEntry(row, e);
    }
    drawOutbox();
    outbox.flush();

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
                if (row.entry && outbox.entries.has(row.entry)) continue;   // ours waits to be sent
                if (row.dirty) {
                    if (last && last.voie && (last.voie.score !== row.lane.score || last.voie.tiebreak !== row.lane.tiebreak)) {
                        say(row, `Changed elsewhere to ${last.voie.score ?? '(empty)'}: saving will ask you to reload.`, 'warn');
                    }
                    continue;
                }
                await reload(row);
            }
        },
        dispose() {
            outbox.removeEventListener('sent', onSent);
            outbox.removeEventListener('conflict', onState);
            outbox.removeEventListener('failed', onState);
            outbox.removeEventListener('change', onChange);
        },
    };
}
