// org_teams.js: the teams of a competition: a spreadsheet (CSV) sent as is to the
// API's import (POST .../spot/ with Content-Type text/csv: all lines or none; a 400
// names the line), shown next to the file; and the list, one row per team.

import { h, clear, api, write, run, say, msg, resourceTable, textCol, intCol, plural, settle } from './org.js';

export async function teamsSection({ box, comp, onDraw, isNew }) {
    const c = comp.competition.id;
    const file = h('input', { type: 'file', id: 'org-csv', accept: '.csv,text/csv,text/plain' });
    const send = h('button', { type: 'button', id: 'org-csv-send' }, 'Import');
    const out = msg({ id: 'org-csv-msg' });
    file.setAttribute('aria-describedby', 'org-csv-msg');
    const list = h('div');
    clear(box).append(
        h('h3', { id: 'org-team-title' }, 'Teams'),
        h('div', { class: 'org-csv' },
            h('label', { for: 'org-csv' }, 'Team list (CSV: a header line naming name, division, affiliate, bib)'),
            h('div', { class: 'org-actions' }, file, send), out,
            h('p', { class: 'sub' }, 'A line with a bib updates the team with that bib, else the team with the same name, ' +
              'else adds a team. Nothing is imported when a line is wrong.')),
        list);

    send.addEventListener('click', async () => {
        const f = file.files[0];
        if (!f) return say(out, 'Choose a file first.', 'error');
        say(out, 'Saving…');
        let text;
        try {
            text = await f.text();
        } catch (e) {
            return say(out, `Cannot read ${f.name}: ${e.message}`, 'error');
        }
        file.removeAttribute('aria-invalid');
        const res = await run(send, out, () => write(`competition/${c}/spot/`, { csv: text }), async (r) => {
            say(out, `${f.name}: ${plural(r.data.added, 'team added', 'teams added')}, ` +
                     `${plural(r.data.updated, 'team updated', 'teams updated')}.`, 'ok');
            await load();
        });
        if (res && !res.ok) {
            file.setAttribute('aria-invalid', 'true');
            say(out, `${f.name}: ${res.data?.message ?? `HTTP ${res.status}`}. Nothing was imported.`, 'error');
        }
    });

    async function load() {
        const { spots } = await api.get(`competition/${c}/spot/`);
        comp.spots = new Map(spots.map((s) => [s.id, s]));
        if (!isNew || isNew()) draw();
        else settle(`competition/${c}/spot/`, list);
    }

    function draw() {
        onDraw?.();
        const items = [...comp.spots.values()];
        const cols = [textCol('name', 'Name', { required: true, nullable: false }), textCol('division', 'Division'),
                      textCol('affiliate', 'Affiliate'), intCol('bib', 'Bib')];
        clear(list).append(
            h('p', { class: 'sub' }, plural(items.length, 'team', 'teams')),
            resourceTable({ caption: 'Teams', kind: 'spot', cols, items, base: `competition/${c}/spot/`,
                            after: load, name: (s) => s.name }));
    }

    draw();
    return { draw, load };
}
