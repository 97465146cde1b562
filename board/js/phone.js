// phone.js: "My team", the view for athletes and spectators on a phone.
//
// Find a team by part of its name or its bib (remembered in this phone's
// localStorage, per API and competition); its card shows its overall place and points
// in its division (shared places as "=2", the cut line when the API gives
// "advancing"), its place and result in each WOD, its running heat and its next one
// (WOD, zone, heat number, lane, start in the competition's time zone); below, its
// division's leaderboard (place, team, points; WOD results on demand).
//
// Scores: a reader and a spectator see the published ones (API Part 3: in a
// competition with "publication: validated", a score shows once a head judge has
// validated it); a client with a token that sees more (an editor's full view) gets
// each WOD result that the public does not see yet marked "provisional", found by
// comparing with the division's leaderboard in the published view (?view=published,
// one more request, not made for a competition that publishes immediately).
//
// Light on the network: the team list comes with the competition (app.js); a team's
// card reads its division's overall leaderboard (?division=), the heat list, and only
// for the WODs with a heat still to run, that WOD's leaderboard of the division (it
// names each team's heat and lane), then the lanes of the running and next heats.
// Lane events of the live stream reload what they touch.

import * as api from './api.js';
import { h, clear } from './dom.js';
import { localTime, placeText, sharedRanks } from './format.js';
import { boardTable, divisionName, wodToggle } from './leaderboard.js';

const KEY = 'ranking.myteam';
const MAX_FOUND = 8;

function memory() {
    try {
        const m = JSON.parse(localStorage.getItem(KEY));
        return m && typeof m === 'object' ? m : {};
    } catch {
        return {};
    }
}
const memoryKey = (c) => `${api.apiBase()}#${c}`;
const remembered = (c) => memory()[memoryKey(c)] ?? null;
function remember(c, spotId) {
    const m = memory();
    if (spotId) m[memoryKey(c)] = spotId;
    else delete m[memoryKey(c)];
    try { localStorage.setItem(KEY, JSON.stringify(m)); } catch { /* private mode: not kept */ }
}

// Case and accents do not matter: "gerland", "Gérland" and "GERLAND" find the same.
const fold = (s) => String(s ?? '').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

export function findTeams(spots, query) {
    const q = fold(query).trim();
    if (!q) return [];
    const digits = /^[0-9]+$/.test(q);
    const found = [];
    for (const s of spots) {
        const name = fold(s.name);
        const bib = s.bib === null ? null : String(s.bib);
        let rank = -1;
        if (digits && bib === q) rank = 0;
        else if (name.startsWith(q)) rank = 1;
        else if (name.split(/\s+/).some((w) => w.startsWith(q))) rank = 2;
        else if (name.includes(q)) rank = 3;
        else if (digits && bib !== null && bib.startsWith(q)) rank = 4;
        if (rank >= 0) found.push({ s, rank });
    }
    found.sort((a, b) => a.rank - b.rank || a.s.name.localeCompare(b.s.name));
    return found.map((f) => f.s);
}

const teamLine = (s) => [s.division ?? 'No division', s.bib !== null ? `bib ${s.bib}` : null, s.affiliate]
    .filter(Boolean).join(' · ');

export async function phoneView({ root, comp }) {
    const c = comp.competition.id;
    const tz = comp.competition.timezone;
    let mine = remembered(c);
    if (mine && !comp.spots.has(mine)) mine = null;
    let data = null;          // what the card shows (see loadCard)
    let nextTimer = null;

    const input = h('input', { id: 'me-q', type: 'search', autocomplete: 'off', spellcheck: 'false',
                               enterkeyhint: 'search', placeholder: 'Part of the name, or the bib',
                               'aria-describedby': 'me-found-count' });
    const count = h('p', { id: 'me-found-count', class: 'sr', 'aria-live': 'polite' });
    const found = h('ul', { class: 'found', id: 'me-found' });
    const finder = h('section', { class: 'finder', 'aria-labelledby': 'me-find-title' },
        h('h2', { id: 'me-find-title' }, h('label', { for: 'me-q' }, 'Find my team')),
        input, count, found);
    const card = h('section', { class: 'me', 'aria-live': 'polite' });
    const board = h('section', { class: 'me-board' });
    root.append(finder, card, board);

    input.addEventListener('input', () => showFound());
    input.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') {
            const first = found.querySelector('button');
            if (first) first.click();
        }
    });

    function showFound() {
        const list = findTeams([...comp.spots.values()], input.value);
        clear(found);
        for (const s of list.slice(0, MAX_FOUND)) {
            found.append(h('li', {}, h('button', { type: 'button', class: 'pick', dataset: { spotId: s.id },
                                                   onclick: () => choose(s.id) },
                h('span', { class: 'team' }, s.name), h('span', { class: 'sub' }, teamLine(s)))));
        }
        const n = list.length;
        const hint = card.querySelector('.hint');
        if (hint) hint.hidden = Boolean(input.value.trim());
        count.textContent = input.value.trim() ? `${n} team${n === 1 ? '' : 's'} found` : '';
        if (input.value.trim() && !n) found.append(h('li', { class: 'note' }, 'No team matches.'));
        if (n > MAX_FOUND) found.append(h('li', { class: 'note' }, `${n - MAX_FOUND} more: type more letters.`));
    }

    async function choose(spotId) {
        mine = spotId;
        remember(c, spotId);
        input.value = '';
        clear(found);
        count.textContent = '';
        finder.hidden = true;
        await load();
        card.querySelector('h2')?.focus();
    }

    function changeTeam() {
        finder.hidden = false;
        input.focus();
    }

    // Everything the card needs, from the API.
    async function loadCard(spot) {
        const div = spot.division;
        const q = div === null ? '' : `?division=${encodeURIComponent(div)}`;
        // a competition that publishes validated scores only: a client with a token may
        // see entered scores (an editor does); the published view says which of them
        // the public does not see yet.  (A competition without "publication", a field
        // of the API's Part 3 that a server may not give yet, may be either.)
        const both = api.token() && comp.competition.publication !== 'immediate';
        const [lb, heatList, pub] = await Promise.all([
            api.get(`competition/${c}/leaderboard${q}`), api.get(`competition/${c}/heat/`),
            both ? api.get(`competition/${c}/leaderboard${q}${q ? '&' : '?'}view=published`).catch(() => null)
                 : null]);
        const group = lb.leaderboard.divisions.find((d) => d.division === div)
            || { division: div, entries: [] };
        const heats = heatList.heats;
        const open = heats.filter((x) => x.status !== 'finished');
        // my lane in each heat still to run: a WOD leaderboard names the heat and the
        // lane of each team; heats without a WOD are read directly
        const laneIn = new Map();      // heat id -> lane id
        const lines = new Map();       // heat id -> its lanes (when read)
        const wodIds = [...new Set(open.filter((x) => x.wod_id !== null).map((x) => x.wod_id))];
        await Promise.all([
            ...wodIds.map(async (w) => {
                const b = (await api.get(`competition/${c}/wod/${w}/leaderboard${q}`)).leaderboard;
                for (const d of b.divisions) {
                    const e = d.entries.find((x) => x.spot_id === spot.id);
                    if (e && e.heat_id !== null) laneIn.set(e.heat_id, e.lane_id);
                }
            }),
            ...open.filter((x) => x.wod_id === null).map(async (x) => {
                const ls = (await api.get(`competition/${c}/heat/${x.id}/line/`)).lines;
                lines.set(x.id, ls);
                const l = ls.find((y) => y.spot_id === spot.id);
                if (l) laneIn.set(x.id, l.id);
            })]);
        const myOpen = open.filter((x) => laneIn.has(x.id));
        const running = myOpen.filter((x) => x.status === 'running');
        const next = myOpen.find((x) => x.status === 'scheduled') || null;
        const shown = next ? [...running, next] : running;
        await Promise.all(shown.filter((x) => !lines.has(x.id)).map(async (x) => {
            lines.set(x.id, (await api.get(`competition/${c}/heat/${x.id}/line/`)).lines);
        }));
        const laneOf = (x) => {
            const ls = lines.get(x.id) || [];
            return ls.find((l) => l.id === laneIn.get(x.id) && l.spot_id === spot.id)
                || ls.find((l) => l.spot_id === spot.id) || null;
        };
        const entry = group.entries.find((e) => e.spot_id === spot.id) || null;
        const pubEntry = pub?.leaderboard.divisions.find((d) => d.division === div)?.entries
            .find((e) => e.spot_id === spot.id);
        // the WODs whose result is not the published one: entered, not validated yet
        const provisional = new Set(entry && pub ? entry.results
            .filter((r) => (pubEntry?.results.find((x) => x.wod_id === r.wod_id)?.score ?? null) !== r.score)
            .map((r) => r.wod_id) : []);
        // my place and points too, when they are not the public's
        const provisionalPlace = Boolean(entry && pub && (pubEntry?.rank !== entry.rank || pubEntry?.points !== entry.points));
        return { spot, board: lb.leaderboard, group, entry, provisional, provisionalPlace,
                 running: running.map((x) => ({ heat: x, lane: laneOf(x) })),
                 next: next ? { heat: next, lane: laneOf(next) } : null,
                 lanes: new Set([...laneIn.values()]) };
    }

    function heatCard(kind, { heat, lane }) {
        const wod = comp.wods.find((w) => w.id === heat.wod_id);
        const zone = comp.zones.find((z) => z.id === heat.zone_id);
        return h('article', { class: `heat-card ${kind}`, dataset: { heatId: heat.id } },
            h('h3', {}, kind === 'running' ? 'Now' : 'Next'),
            h('p', { class: 'lane' }, h('span', { class: 'lane-label' }, 'Lane'),
              h('span', { class: 'lane-no', dataset: { field: 'lane' } }, lane ? lane.number : '?')),
            h('p', { class: 'heat-what' },
              h('span', { dataset: { field: 'wod' } }, wod ? wod.name : 'No WOD'), ' · ',
              h('span', { dataset: { field: 'zone' } }, zone ? zone.name : 'No floor'), ' · ',
              h('span', { dataset: { field: 'heat' } }, `Heat ${heat.number}`)),
            h('p', { class: 'heat-when' }, heat.start_time
                ? h('time', { datetime: heat.start_time, dataset: { field: 'start' } },
                    kind === 'running' ? `started ${localTime(heat.start_time, tz)}` : localTime(heat.start_time, tz))
                : 'time not set'));
    }

    function render() {
        clear(card);
        clear(board);
        if (!mine || !data) {
            finder.hidden = false;
            card.append(h('p', { class: 'note hint' },
                'Type three letters of your team\u2019s name, or its bib: this phone remembers it.'));
            return;
        }
        const { spot, entry, group } = data;
        const of = group.entries.length;
        const shared = sharedRanks(group.entries);
        const wodShared = data.board.wods.map((w, k) => sharedRanks(group.entries.map((e) => e.results[k])));
        const advancing = entry ? entry.advancing : null;
        card.append(h('div', { class: 'me-card', dataset: { spotId: spot.id } },
            h('div', { class: 'me-head' },
                h('h2', { class: 'team me-name', tabindex: '-1' }, spot.name),
                h('p', { class: 'sub' }, teamLine(spot)),
                h('button', { type: 'button', class: 'link', id: 'me-change', onclick: changeTeam }, 'Not your team?')),
            h('div', { class: 'me-stats' },
                h('p', { class: 'stat' },
                    h('span', { class: 'stat-val', dataset: { field: 'place' } },
                      entry ? placeText(entry.rank, shared.has(entry.rank)) : '–'),
                    h('span', { class: 'stat-label' },
                      entry && shared.has(entry.rank) ? 'shared place' : 'place',
                      ` of ${of} · ${divisionName(group)}`,
                      data.provisionalPlace ? h('span', { class: 'prov', dataset: { field: 'place-status' } }, 'provisional') : null)),
                h('p', { class: 'stat' },
                    h('span', { class: 'stat-val', dataset: { field: 'points' } }, entry ? entry.points : '–'),
                    h('span', { class: 'stat-label' }, 'points'))),
            advancing === true || advancing === false
                ? h('p', { class: `cut ${advancing ? 'in' : 'out'}`, dataset: { field: 'advancing' } },
                    advancing ? 'Above the cut line: going through' : 'Below the cut line')
                : null,
            h('div', { class: 'me-heats' },
                data.running.map((r) => heatCard('running', r)),
                data.next ? heatCard('next', data.next) : null,
                !data.running.length && !data.next ? h('p', { class: 'note' }, 'No heat to come for this team.') : null),
            entry && data.board.wods.length ? h('table', { class: 'me-wods' },
                h('caption', {}, 'Each WOD'),
                h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'WOD'), h('th', { scope: 'col' }, 'Place'),
                                 h('th', { scope: 'col' }, 'Result'))),
                h('tbody', {}, entry.results.map((r, k) => {
                    const w = comp.wods.find((x) => x.id === r.wod_id);
                    const prov = data.provisional.has(r.wod_id);
                    return h('tr', { dataset: prov ? { wodId: r.wod_id, status: 'provisional' } : { wodId: r.wod_id } },
                        h('th', { scope: 'row' }, w ? w.name : r.wod_id),
                        h('td', { class: 'place' }, placeText(r.rank, wodShared[k].has(r.rank))),
                        h('td', { class: 'score' }, r.score ?? '–',
                          prov ? h('span', { class: 'prov' }, 'provisional') : null));
                }))) : null,
            data.provisional.size ? h('p', { class: 'note prov-note' },
                'Provisional: entered, not validated yet. Spectators see the last validated result.') : null));
        const boards = h('div', { class: 'boards' });
        boards.append(h('div', { class: 'scroll' }, boardTable(data.board, group, comp, { mine: spot.id })));
        board.append(h('div', { class: 'me-board-head' }, h('h2', {}, `Leaderboard · ${divisionName(group)}`),
                       wodToggle(boards)), boards);
        armNextTimer();
    }

    // The next heat's start may make it the running one: look again then.
    function armNextTimer() {
        clearTimeout(nextTimer);
        const t = data?.next?.heat.start_time ? Date.parse(data.next.heat.start_time) - Date.now() : NaN;
        if (t > 0 && t < 2 ** 31 - 1) nextTimer = setTimeout(() => load().catch(() => {}), t + 5000);
    }

    let loadedAt = 0;
    async function load() {
        const spot = mine ? comp.spots.get(mine) : null;
        if (mine && !spot) {        // the team is gone
            mine = null;
            remember(c, null);
        }
        data = spot ? await loadCard(spot) : null;
        loadedAt = Date.now();
        render();
    }

    // A phone asleep in a pocket may have missed a heat's start: reload on waking.
    const onVisible = () => {
        if (document.visibilityState === 'visible' && Date.now() - loadedAt > 30000) load().catch(() => {});
    };
    document.addEventListener('visibilitychange', onVisible);

    finder.hidden = Boolean(mine);
    await load();
    if (!mine) input.focus();

    return {
        async refresh(changes) {
            if (!mine || !data) return;
            const div = data.spot.division;
            const touches = (ch) => {
                if (ch.resync || ch.resource) return true;
                const laneId = ch.voie?.id ?? ch.lane_id;
                if (ch.voie?.spot_id === mine || data.lanes.has(laneId)) return true;
                const other = ch.voie?.spot_id ? comp.spots.get(ch.voie.spot_id) : null;
                return !other || other.division === div;     // a place in my division may move
            };
            if (changes.some(touches)) await load();
        },
        dispose() {
            clearTimeout(nextTimer);
            document.removeEventListener('visibilitychange', onVisible);
        },
    };
}
