// org.test.mjs: the organizer's views of the scoreboard page (board/js/org*.js) in
// headless Chromium, on the server of board-test.sh (run after board.test.mjs).  An
// organizer builds a competition from nothing through the page: the competition, a
// team list (CSV: a bad line first, its error shown, then fixed), WODs and zones;
// generates a WOD's heats (a preview, then the real thing), edits a heat, moves and
// removes teams, starts a heat; a judge enters scores through the API; the organizer
// sees them wait (live), validates one lane then the heat; a reader then sees them.
// Checks run in order; each prints "ok" or "not ok"; the last line is "N passed, M
// failed".  Screenshots: $OUT/shots/org-*.png.
import { writeFileSync } from 'node:fs';
import { BASE, apiCall, assert, launchBrowser, logIn, newTab as newTabIn, sleep, tokenOf } from './lib.mjs';

const ORIGIN = new URL(BASE).origin;
const OUT = process.env.OUT;
const BOARD = new URL('board/', BASE).href;
let passed = 0;
let failed = 0;
let stop = false;       // a step the next ones need failed: they are counted as failed

async function check(name, fn, { needed = true } = {}) {
    if (stop) {
        failed += 1;
        console.log(`not ok - ${name}\n  (not run: an earlier step it needs failed)`);
        return;
    }
    try {
        await fn();
        passed += 1;
        console.log(`ok - ${name}`);
    } catch (e) {
        failed += 1;
        if (needed) stop = true;
        console.log(`not ok - ${name}\n  ${String(e && e.stack || e).split('\n').slice(0, 6).join('\n  ')}`);
        await page.screenshot({ path: `${OUT}/shots/org-failed-${passed + failed}.png`, fullPage: true }).catch(() => {});
    }
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

const organizer = await tokenOf('organizer');
const judge = await tokenOf('judge');

const browser = await launchBrowser();
const newTab = (viewport) => newTabIn(browser, viewport);
const org = await newTab();
const page = org.p;
const shot = (name, p = page) => p.screenshot({ path: `${OUT}/shots/${name}.png`, fullPage: true });
const goHash = (h, p = page) => p.evaluate((x) => { location.hash = x; }, h);
// a value typed as a person would not type it (a date picker, a select): set, then
// the input and change events
const setValue = (sel, v, p = page) => p.$eval(sel, (e, x) => {
    e.value = x;
    e.dispatchEvent(new Event('input', { bubbles: true }));
    e.dispatchEvent(new Event('change', { bubbles: true }));
}, v);
async function typeInto(sel, text, p = page) {
    await p.$eval(sel, (e) => { e.value = ''; });
    await p.type(sel, text);
}
// waits until the message element says something final (not "Saving…")
async function outcome(sel, ms = 8000, p = page) {
    await p.waitForFunction((s) => {
        const e = document.querySelector(s);
        return e && ['ok', 'error', 'warn'].includes(e.dataset.kind) && e.textContent !== 'Saving…';
    }, { timeout: ms }, sel);
    return p.$eval(sel, (e) => ({ kind: e.dataset.kind, text: e.textContent }));
}
const visible = (sel, p = page) => p.$eval(sel, (e) => e.checkVisibility()).catch(() => false);

const EVIL = '<img src=x onerror=alert(1)>';
const NAME = 'Organizer Open 2026';
let C = null;               // the new competition's id
const api = (path) => apiCall(`competition/${C}${path}`, { token: organizer }).then((r) => {
    assert(r.status === 200, `GET ${path}: ${r.status}`);
    return r.data;
});

await check('an organizer logs in: the Setup, Heat plan and Validate entries show', async () => {
    await page.goto(BOARD, { waitUntil: 'networkidle0' });
    await logIn(page, 'organizer');
    await page.waitForSelector('#view table.board', { timeout: 8000 });
    await page.waitForFunction(() => [...document.querySelectorAll('#nav li[data-org]')].every((li) => li.checkVisibility()),
                               { timeout: 5000 });
    const views = await page.$$eval('#nav li[data-org] a', (as) => as.map((a) => a.dataset.view));
    assert(same(views, ['setup', 'plan', 'validate']), `entries ${views}`);
});

await check('a judge does not get the organizer entries', async () => {
    const { ctx, p } = await newTab();
    try {
        await p.goto(BOARD, { waitUntil: 'networkidle0' });
        const probe = p.waitForResponse((r) => r.url().includes('/changes?limit=1'), { timeout: 8000 });
        await logIn(p, 'judge');
        await p.waitForSelector('#view table.board', { timeout: 8000 });
        const st = (await probe).status();
        assert(st === 403, `the change log answers a judge ${st}`);
        await sleep(200);
        const shown = await p.$$eval('#nav li[data-org]', (l) => l.filter((li) => li.checkVisibility()).length);
        assert(shown === 0, `${shown} organizer entries shown to a judge`);
        assert(await p.$eval('#nav a[data-view="judge"]', (a) => a.checkVisibility()), 'no Judge entry');
    } finally {
        await ctx.close();
    }
}, { needed: false });

await check('creates a competition through the page, then edits it', async () => {
    const first = await page.evaluate(() => /#\/c\/([0-9]+)/.exec(location.hash)[1]);
    await goHash(`#/c/${first}/setup`);
    await page.waitForSelector('#org-new-competition', { visible: true, timeout: 8000 });
    await page.click('#org-new-competition');
    const f = '.org-new form';
    await page.type(`${f} input[name=name]`, NAME);
    await page.type(`${f} input[name=timezone]`, 'Europe/Paris');
    await setValue(`${f} input[name=start_date]`, '2026-12-05');
    await setValue(`${f} input[name=end_date]`, '2026-12-05');
    await page.select(`${f} select[name=publication]`, 'validated');
    await page.click(`${f} button[type=submit]`);
    await page.waitForFunction((n) => document.querySelector('#comp-name').textContent === n
        && /#\/c\/[0-9]+\/setup$/.test(location.hash), { timeout: 8000 }, NAME);
    C = await page.evaluate(() => /#\/c\/([0-9]+)/.exec(location.hash)[1]);
    const got = (await api('')).competition;
    assert(got.name === NAME && got.timezone === 'Europe/Paris' && got.start_date === '2026-12-05'
           && got.publication === 'validated' && got.status === 'upcoming', `stored ${JSON.stringify(got)}`);
    assert(await page.$eval('#comp-select', (s) => s.value) === C, 'the competition list does not show it');
    // an edit: the location and the status
    await page.waitForSelector('#org-comp-title', { timeout: 8000 });
    const g = '.org-section form';
    await typeInto(`${g} input[name=location]`, 'Halle 3, Nantes');
    await page.select(`${g} select[name=status]`, 'in_progress');
    await page.click(`${g} button[type=submit]`);
    for (const end = Date.now() + 8000; Date.now() < end; await sleep(100)) {
        const c = (await api('')).competition;
        if (c.location === 'Halle 3, Nantes' && c.status === 'in_progress') {
            const o = await outcome(`${g} .org-msg`);
            assert(o.text === 'Saved.', `the form says "${o.text}"`);
            return;
        }
    }
    throw new Error(`not saved: ${JSON.stringify((await api('')).competition)}`);
});

const BAD_CSV = 'name,division,bib\nIron Owls,RX,1\nSteel Yaks,RX,2\nCopper Cats,RX,2\n';
const GOOD_CSV = `Name,Division,Affiliate,Bib\nIron Owls,RX,Box Nord,1\nSteel Yaks,RX,,2\nCopper Cats,RX,Box Sud,3\n` +
                 `${EVIL},RX,,4\nTin Foxes,Scaled,,5\nLead Bears,Scaled,,6\n`;

await check("team list: a CSV with a bad line shows the API's line error next to the file, and imports nothing", async () => {
    writeFileSync(`${OUT}/teams-bad.csv`, BAD_CSV);
    const want = await apiCall(`competition/${C}/spot/`, { method: 'POST', token: organizer, body: BAD_CSV,
                                                            headers: { 'Content-Type': 'text/csv' } });
    assert(want.status === 400 && /line 4/.test(want.data.message), `the API answers ${want.status} ${JSON.stringify(want.data)}`);
    await page.waitForSelector('#org-csv', { timeout: 8000 });
    await (await page.$('#org-csv')).uploadFile(`${OUT}/teams-bad.csv`);
    await page.click('#org-csv-send');
    const o = await outcome('#org-csv-msg');
    assert(o.kind === 'error' && o.text.includes(want.data.message) && o.text.includes('teams-bad.csv'),
           `shown "${o.text}" (${o.kind}), the API says "${want.data.message}"`);
    assert(await page.$eval('#org-csv', (e) => e.getAttribute('aria-invalid') === 'true'
                                              && e.getAttribute('aria-describedby') === 'org-csv-msg'), 'the file is not marked');
    assert((await api('/spot/')).spots.length === 0, 'a team was imported');
    await shot('org-csv-error');
});

await check('team list: the fixed CSV imports (6 added), the list shows them', async () => {
    writeFileSync(`${OUT}/teams.csv`, GOOD_CSV);
    await (await page.$('#org-csv')).uploadFile(`${OUT}/teams.csv`);
    await page.click('#org-csv-send');
    const o = await outcome('#org-csv-msg');
    assert(o.kind === 'ok' && o.text === 'teams.csv: 6 teams added, 0 teams updated.', `shown "${o.text}"`);
    const spots = (await api('/spot/')).spots;
    assert(spots.length === 6 && spots.some((s) => s.name === EVIL && s.bib === 4), `stored ${JSON.stringify(spots)}`);
    await page.waitForFunction(() => document.querySelectorAll('table[data-kind=spot] tbody tr[data-id]').length === 6,
                               { timeout: 5000 });
    const names = await page.$$eval('table[data-kind=spot] tbody tr[data-id] input[name=name]', (l) => l.map((e) => e.value));
    assert(same(names.sort(), spots.map((s) => s.name).sort()), `page ${names}`);
    assert(!(await page.$eval('#org-csv', (e) => e.hasAttribute('aria-invalid'))), 'still marked invalid');
});

// adds one row of a resource table: {input name: value}, selects by their name
async function addRow(kind, values) {
    const row = `table[data-kind=${kind}] tr.org-new-row`;
    const before = await page.$$eval(`table[data-kind=${kind}] tr[data-id]`, (l) => l.length);
    for (const [k, v] of Object.entries(values)) {
        if (await page.$(`${row} select[name=${k}]`)) await page.select(`${row} select[name=${k}]`, v);
        else await typeInto(`${row} input[name=${k}]`, v);
    }
    await page.click(`${row} button.add`);
    await page.waitForFunction((s, n) => document.querySelectorAll(s).length === n + 1, { timeout: 8000 },
                               `table[data-kind=${kind}] tr[data-id]`, before);
}
let WODS = [];
let ZONES = [];

await check('adds two WODs (scoring, cap), changes their order and a cap; adds two zones', async () => {
    await addRow('wod', { name: 'Row Sprint', scoring: 'time', time_cap: '12:00' });
    await addRow('wod', { name: 'Max Reps', scoring: 'reps', time_cap: '' });
    let wods = (await api('/wod/')).wods;
    assert(wods.length === 2 && wods[0].name === 'Row Sprint' && wods[0].time_cap === 720 && wods[0].scoring === 'time'
           && wods[1].scoring === 'reps' && wods[1].time_cap === null, `stored ${JSON.stringify(wods)}`);
    // Max Reps first
    await page.click(`table[data-kind=wod] tr[data-id="${wods[1].id}"] button.move:first-child`);
    await page.waitForFunction((id) => document.querySelector('table[data-kind=wod] tbody tr[data-id]')?.dataset.id === id,
                               { timeout: 8000 }, wods[1].id);
    // the cap of Row Sprint: 10:30
    const r = `table[data-kind=wod] tr[data-id="${wods[0].id}"]`;
    await typeInto(`${r} input[name=time_cap]`, '10:30');
    await page.click(`${r} button.save`);
    await outcome(`${r} .org-msg`);
    wods = (await api('/wod/')).wods;
    const byId = Object.fromEntries(wods.map((w) => [w.name, w]));
    assert(byId['Max Reps'].position < byId['Row Sprint'].position && byId['Row Sprint'].time_cap === 630,
           `stored ${JSON.stringify(wods)}`);
    WODS = byId;
    await addRow('zone', { name: 'Main floor', lane_count: '4' });
    await addRow('zone', { name: 'Outside rig', lane_count: '3' });
    ZONES = Object.fromEntries((await api('/zone/')).zones.map((z) => [z.name, z]));
    assert(ZONES['Main floor']?.lane_count === 4 && ZONES['Outside rig']?.lane_count === 3, `zones ${JSON.stringify(ZONES)}`);
    await shot('org-setup');
});

const GEN = () => ({ zone_id: ZONES['Main floor'].id, lanes: 3, order: 'bib', lane_order: 'ascending',
                     start_time: '2026-12-05T08:00:00Z', interval: 900 });
const spotName = async () => new Map((await api('/spot/')).spots.map((s) => [s.id, s]));

await check('generates Row Sprint\'s heats: the preview is the API\'s dry run and creates nothing; the confirm creates them', async () => {
    await goHash(`#/c/${C}/plan`);
    await page.waitForSelector('#org-gen-form select[name=wod]', { timeout: 8000 });
    await page.select('#org-gen-form select[name=wod]', WODS['Row Sprint'].id);
    await page.select('#org-gen-form select[name=zone]', ZONES['Main floor'].id);
    await typeInto('#org-gen-form input[name=lanes]', '3');
    await page.select('#org-gen-form select[name=order]', 'bib');
    await setValue('#org-gen-form input[name=start]', '2026-12-05T09:00');    // Paris, UTC+1
    await typeInto('#org-gen-form input[name=interval]', '15');
    await page.click('#org-gen-preview-btn');
    await page.waitForSelector('#org-gen-confirm', { timeout: 8000 });
    const dry = await apiCall(`competition/${C}/wod/${WODS['Row Sprint'].id}/generate-heats`,
                              { method: 'POST', token: organizer, body: { ...GEN(), dry_run: true } });
    assert(dry.status === 200, `dry run ${dry.status}`);
    const spots = await spotName();
    const want = dry.data.heats.map((x) => [String(x.number), x.voies.map((l) => [String(l.number), spots.get(l.spot_id).name])]);
    const got = await page.$$eval('#org-gen-preview table.org-plan-heat', (ts) => ts.map((t) => [t.dataset.number,
        [...t.querySelectorAll('tbody tr')].map((tr) => [tr.children[0].textContent, tr.children[1].textContent])]));
    assert(same(got, want), `preview ${JSON.stringify(got)}\n  API ${JSON.stringify(want)}`);
    assert(want.length === 3, `${want.length} heats planned`);
    const title = await page.$eval('#org-gen-preview h4', (e) => e.textContent);
    assert(title === 'Preview: 3 heats of Row Sprint in Main floor', `preview title "${title}"`);
    assert((await api('/heat/')).heats.length === 0, 'the preview created heats');
    await shot('org-plan-preview');
    await page.click('#org-gen-confirm');
    const o = await outcome('#org-gen-msg');
    assert(o.text === '3 heats created.', `shown "${o.text}"`);
    const heats = (await api('/heat/')).heats;
    assert(heats.length === 3 && heats[0].start_time === '2026-12-05T08:00:00Z' && heats[1].start_time === '2026-12-05T08:15:00Z'
           && heats.every((x) => x.wod_id === WODS['Row Sprint'].id && x.zone_id === ZONES['Main floor'].id),
           `stored ${JSON.stringify(heats)}`);
    await page.waitForFunction(() => document.querySelectorAll('#org-heats tbody[data-heat-id]').length === 3, { timeout: 5000 });
    assert(!(await page.$('#org-gen-confirm')), 'the confirm button stays');
});

let HEATS = [];
const heatSel = (id) => `#org-heats tbody[data-heat-id="${id}"]`;
const lanesOf = async (x) => (await api(`/zone/${x.zone_id}/heat/${x.id}/voie/`)).voies;
async function until(fn, what, ms = 8000) {
    let last;
    for (const end = Date.now() + ms; Date.now() < end; await sleep(100)) {
        last = await fn();
        if (last === true) return;
    }
    throw new Error(`${what}: ${JSON.stringify(last)}`);
}

await check('edits a heat: its number, time and zone (it moves to the other zone)', async () => {
    HEATS = (await api('/heat/')).heats;
    const x = HEATS[0];
    await page.click(`${heatSel(x.id)} button.edit`);
    await page.waitForSelector(`${heatSel(x.id)} tr.editing input[name=number]`);
    await typeInto(`${heatSel(x.id)} input[name=number]`, '10');
    await setValue(`${heatSel(x.id)} input[name=start_time]`, '2026-12-05T11:30');
    await page.select(`${heatSel(x.id)} select[name=zone_id]`, ZONES['Outside rig'].id);
    await page.click(`${heatSel(x.id)} button.save`);
    await until(async () => {
        const y = (await api(`/heat/${x.id}`)).heat;
        return (y.number === 10 && y.start_time === '2026-12-05T10:30:00Z' && y.zone_id === ZONES['Outside rig'].id) || y;
    }, 'the heat as stored');
    await page.waitForSelector(`#org-heats section[data-zone-id="${ZONES['Outside rig'].id}"] ${heatSel(x.id).slice(10)}`,
                               { timeout: 5000 });
    const row = await page.$eval(`${heatSel(x.id)} tr.org-heat`, (tr) => tr.firstChild.textContent);
    assert(row === '10', `the page shows heat ${row}`);
});

await check('lanes: a team moves to a free lane, two teams swap, a no-show is removed, a late team is added', async () => {
    const x = (await api(`/heat/${HEATS[1].id}`)).heat;       // 2 teams in lanes 1 and 2 of 4
    await page.click(`${heatSel(x.id)} button.lanes`);
    await page.waitForSelector(`${heatSel(x.id)} .org-lanes tr[data-lane-id]`, { timeout: 8000 });
    let lanes = await lanesOf(x);
    assert(same(lanes.map((l) => l.number), [1, 2]), `lanes ${JSON.stringify(lanes)}`);
    const [a, b] = lanes;
    // a to lane 4 (free)
    await page.select(`${heatSel(x.id)} tr[data-lane-id="${a.id}"] select[name=to]`, '4');
    await page.click(`${heatSel(x.id)} tr[data-lane-id="${a.id}"] button.move`);
    await until(async () => { const l = await lanesOf(x); return same(l.map((y) => [y.id, y.number]), [[b.id, 2], [a.id, 4]]) || l; }, 'after the move');
    // b to lane 4: a swap of the teams
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.number === '4', { timeout: 5000 },
                               `${heatSel(x.id)} tr[data-lane-id="${a.id}"]`);
    await page.select(`${heatSel(x.id)} tr[data-lane-id="${b.id}"] select[name=to]`, '4');
    await page.click(`${heatSel(x.id)} tr[data-lane-id="${b.id}"] button.move`);
    await until(async () => {
        const l = await lanesOf(x);
        return same(l.map((y) => [y.number, y.spot_id]), [[2, a.spot_id], [4, b.spot_id]]) || l;
    }, 'after the swap');
    // the team now in lane 2 does not come: removed (two presses)
    const names = await spotName();
    await page.waitForFunction((s, n) => document.querySelector(s)?.textContent === n, { timeout: 5000 },
                               `${heatSel(x.id)} tr[data-number="2"][data-lane-id="${b.id}"] .team`, names.get(a.spot_id).name);
    const rm = `${heatSel(x.id)} tr[data-number="2"] button.remove`;
    await page.click(rm);
    assert(await page.$eval(rm, (e) => e.textContent) === 'Really remove?', 'no second step');
    await page.click(rm);
    await until(async () => { const l = await lanesOf(x); return same(l.map((y) => y.number), [4]) || l; }, 'after the removal');
    // (the page drawn again: its add-a-team row offers the removed team)
    await page.waitForFunction((s) => document.querySelectorAll(`${s} .org-lanes tr[data-lane-id]`).length === 1,
                               { timeout: 5000 }, heatSel(x.id));
    // and comes late after all: added on lane 1
    await page.waitForSelector(`${heatSel(x.id)} .org-add-lane select[name=spot]`, { timeout: 5000 });
    await page.select(`${heatSel(x.id)} .org-add-lane select[name=spot]`, a.spot_id);
    await page.select(`${heatSel(x.id)} .org-add-lane select[name=lane]`, '1');
    await page.click(`${heatSel(x.id)} .org-add-lane button.add`);
    await until(async () => {
        const l = await lanesOf(x);
        return same(l.map((y) => [y.number, y.spot_id]), [[1, a.spot_id], [4, b.spot_id]]) || l;
    }, 'after the late team');
    await page.waitForFunction((s, n) => document.querySelector(`${s} .org-lanes tr[data-number="1"] .team`)?.textContent === n,
                               { timeout: 5000 }, heatSel(x.id), names.get(a.spot_id).name);
});

let RUN = null;             // the heat started
await check('starts a heat with one button, and finishes another', async () => {
    RUN = (await api(`/heat/${HEATS[2].id}`)).heat;
    const btn = `${heatSel(RUN.id)} button.status-btn`;
    assert(await page.$eval(btn, (e) => e.textContent) === 'Start', 'no Start button');
    await page.click(btn);
    await until(async () => (await api(`/heat/${RUN.id}`)).heat.status === 'running' || 'not running', 'the heat status');
    await page.waitForFunction((s) => document.querySelector(s)?.textContent === 'Finish', { timeout: 5000 }, btn);
    assert(await page.$eval(`${heatSel(RUN.id)} .badge`, (e) => e.dataset.status) === 'running', 'badge');
    await page.click(`${heatSel(RUN.id)} button.lanes`);
    await page.waitForSelector(`${heatSel(RUN.id)} .org-lanes tr[data-lane-id]`, { timeout: 8000 });
    // the heat of 10 (the other zone): started then finished, two presses of the same button
    const other = `${heatSel(HEATS[0].id)} button.status-btn`;
    await page.click(other);
    await page.waitForFunction((s) => document.querySelector(s)?.textContent === 'Finish', { timeout: 5000 }, other);
    await page.click(other);
    await until(async () => (await api(`/heat/${HEATS[0].id}`)).heat.status === 'finished' || 'not finished', 'the other heat');
    await page.evaluate(() => window.scrollTo(0, document.querySelector('#org-heats').offsetTop - 20));
    await shot('organizer-heats');
});

let reader = null;
let LANES = [];
await check('validation: scores a judge enters wait, counted live; each beside its history', async () => {
    LANES = await lanesOf(RUN);
    assert(LANES.length >= 2, `lanes of the running heat: ${JSON.stringify(LANES)}`);
    await goHash(`#/c/${C}/validate/${RUN.id}`);
    await page.waitForSelector(`.org-lanes-validate[data-heat-id="${RUN.id}"]`, { timeout: 8000 });
    await page.waitForFunction(() => document.querySelector('#live-state').dataset.state === 'live', { timeout: 8000 });
    assert(await page.$eval('#org-waiting', (e) => e.dataset.count) === '0', 'something waits already');
    // a reader's page beside it: the heat, no score yet
    reader = await newTab();
    await reader.p.goto(`${BOARD}#/c/${C}/heats`);
    await logIn(reader.p, 'demo');
    await reader.p.waitForSelector(`#view table.heat[data-heat-id="${RUN.id}"]`, { timeout: 8000 });
    const scores = ['7:45', '8:10.5', '9:02'];
    const t0 = Date.now();
    for (const [i, l] of LANES.entries()) {
        const r = await apiCall(`competition/${C}/zone/${RUN.zone_id}/heat/${RUN.id}/voie/${l.id}`,
                                { method: 'PUT', token: judge, body: { score: scores[i] } });
        assert(r.status === 200 && r.data.voie.score_status === 'entered', `PUT ${r.status}`);
    }
    await page.waitForFunction((n) => document.querySelector('#org-waiting').dataset.count === String(n),
                               { timeout: 3000, polling: 50 }, LANES.length);
    console.log(`  # the count shows ${LANES.length} waiting ${Date.now() - t0} ms after the first PUT was sent`);
    await page.waitForFunction((n) => document.querySelectorAll('.org-lanes-validate tr[data-status="entered"]').length === n,
                               { timeout: 3000 }, LANES.length);
    const first = `.org-lanes-validate tr[data-lane-id="${LANES[0].id}"]`;
    const hist = await page.$eval(`${first} .org-history`, (e) => e.textContent);
    assert(/judge entered 7:45/.test(hist), `history shows "${hist}"`);
    assert(await page.$eval(`${first} .score`, (e) => e.textContent) === '7:45', 'score not shown');
    const count = await page.$eval(`#org-heat-pick a[data-heat-id="${RUN.id}"] .org-count`, (e) => e.textContent);
    assert(count.includes(String(LANES.length)), `the heat's count "${count}"`);
    assert(await reader.p.$eval(`#view table.heat[data-heat-id="${RUN.id}"] tr[data-lane-id="${LANES[0].id}"] td.score`,
                                (e) => e.textContent) === '', 'the reader sees an entered score');
    await shot('org-validate');
});

await check('validation: one lane, then the rest of the heat; a reader\'s page then shows the scores', async () => {
    const first = `.org-lanes-validate tr[data-lane-id="${LANES[0].id}"]`;
    await page.click(`${first} button.validate`);
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.status === 'validated', { timeout: 5000 }, first);
    const one = (await api(`/zone/${RUN.zone_id}/heat/${RUN.id}/voie/${LANES[0].id}`)).voie;
    assert(one.score_status === 'validated', `lane ${JSON.stringify(one)}`);
    await page.waitForFunction((n) => document.querySelector('#org-waiting').dataset.count === String(n),
                               { timeout: 3000 }, LANES.length - 1);
    await page.waitForFunction((s) => /validated/.test(document.querySelector(s).textContent), { timeout: 3000 }, `${first} .org-history`);
    // the reader's page: the validated score only
    await reader.p.waitForFunction((s) => document.querySelector(s)?.textContent === '7:45', { timeout: 4000 },
                               `#view table.heat[data-heat-id="${RUN.id}"] tr[data-lane-id="${LANES[0].id}"] td.score`);
    await page.click('#org-validate-all');
    await page.waitForFunction(() => document.querySelector('#org-waiting').dataset.count === '0', { timeout: 5000 });
    const all = await lanesOf(RUN);
    assert(all.every((l) => l.score_status === 'validated'), `lanes ${JSON.stringify(all)}`);
    const rp = reader.p;
    await rp.waitForFunction((hid, ids, want) => ids.every((id, i) =>
        document.querySelector(`#view table.heat[data-heat-id="${hid}"] tr[data-lane-id="${id}"] td.score`)?.textContent === want[i]),
        { timeout: 4000 }, RUN.id, LANES.map((l) => l.id), ['7:45', '8:10.5', '9:02'].slice(0, LANES.length));
    const pub = await apiCall(`competition/${C}/zone/${RUN.zone_id}/heat/${RUN.id}/voie/${LANES[1].id}?view=published`,
                              { token: judge });
    assert(pub.data.voie.score === '8:10.5', `published ${JSON.stringify(pub.data)}`);
    await shot('reader-validated', rp);
});

await check(`a team named ${EVIL} is shown as text everywhere and runs nothing`, async () => {
    const evil = [...(await spotName()).values()].find((s) => s.name === EVIL);
    await goHash(`#/c/${C}/plan`);
    await page.waitForSelector('#org-heats tbody[data-heat-id]', { timeout: 8000 });
    // the heat that holds it, lanes open
    for (const y of (await api('/heat/')).heats) {
        if ((await lanesOf(y)).some((l) => l.spot_id === evil.id)) {
            await page.click(`${heatSel(y.id)} button.lanes`);
            await page.waitForSelector(`${heatSel(y.id)} .org-lanes tr[data-lane-id]`, { timeout: 8000 });
        }
    }
    const shown = await page.$$eval('#org-heats .org-lanes .team', (l) => l.map((e) => e.textContent));
    assert(shown.includes(EVIL), `lanes show ${JSON.stringify(shown)}`);
    await goHash(`#/c/${C}/setup`);
    await page.waitForSelector('table[data-kind=spot]', { timeout: 8000 });
    await sleep(300);
    for (const { p, log } of [org, reader]) {
        assert(await p.$$eval('img', (l) => l.length) === 0, 'an img element in the page');
        assert(log.dialogs.length === 0, `dialogs: ${log.dialogs}`);
        assert(!log.requests.some((u) => u.endsWith('/x')), 'the page requested "x"');
    }
}, { needed: false });

await check('deleting: a competition with heats is refused with the API\'s 409 message; an empty one is deleted', async () => {
    await goHash(`#/c/${C}/setup`);
    await page.waitForSelector('#org-delete-competition', { timeout: 8000 });
    await page.click('#org-delete-competition');
    assert(await page.$eval('#org-delete-competition', (e) => e.textContent) === 'Really delete it?', 'no second step');
    await page.click('#org-delete-competition');
    const o = await outcome('#org-delete-competition + .org-msg');
    assert(o.kind === 'error' && o.text.startsWith('Conflict: '), `shown "${o.text}"`);
    assert((await apiCall(`competition/${C}`, { token: organizer })).status === 200, 'deleted');
    // a competition made by mistake: created, then deleted
    await page.click('#org-new-competition');
    await page.type('.org-new form input[name=name]', 'Made by mistake');
    await page.click('.org-new form button[type=submit]');
    await page.waitForFunction(() => document.querySelector('#comp-name').textContent === 'Made by mistake', { timeout: 8000 });
    const gone = await page.evaluate(() => /#\/c\/([0-9]+)/.exec(location.hash)[1]);
    assert(gone !== C, 'the same competition');
    await page.waitForSelector('#org-delete-competition', { timeout: 8000 });
    await page.click('#org-delete-competition');
    await page.click('#org-delete-competition');
    // the page shows another competition, and lists it no more
    await page.waitForFunction((id) => !location.hash.includes(`/c/${id}/`)
        && ![...document.querySelectorAll('#comp-select option')].some((o) => o.value === id)
        && document.querySelector('#comp-name').textContent !== 'Made by mistake', { timeout: 8000 }, gone);
    assert((await apiCall(`competition/${gone}`, { token: organizer })).status === 404, 'not deleted');
}, { needed: false });

await check('a server without any competition (the list answered empty): the page offers the form, and opens what it creates', async () => {
    const { ctx, p, log } = await newTab();
    let empty = true;
    await p.setRequestInterception(true);
    p.on('request', (r) => {
        if (empty && r.method() === 'GET' && new URL(r.url()).pathname === '/competition/' && r.headers().authorization) {
            return r.respond({ status: 200, contentType: 'application/json', body: '{"status":"success","competitions":[]}' });
        }
        return r.continue();
    });
    try {
        await p.goto(BOARD);
        await logIn(p, 'organizer');
        await p.waitForSelector('#view .org-new form input[name=name]', { timeout: 8000 });
        const note = await p.$eval('#view .note', (e) => e.textContent);
        assert(note === 'No competition yet.', `the page says "${note}"`);
        await p.type('#view .org-new form input[name=name]', 'First of the server');
        empty = false;
        await p.click('#view .org-new form button[type=submit]');
        await p.waitForFunction(() => document.querySelector('#comp-name').textContent === 'First of the server'
            && /#\/c\/[0-9]+\/setup$/.test(location.hash) && document.querySelector('#org-comp-title'), { timeout: 8000 });
        const id = await p.evaluate(() => /#\/c\/([0-9]+)/.exec(location.hash)[1]);
        assert((await apiCall(`competition/${id}`, { method: 'DELETE', token: organizer })).status === 200, 'not created');
        assert(log.errors.length === 0 && log.dialogs.length === 0, `errors ${log.errors}, dialogs ${log.dialogs}`);
    } finally {
        await ctx.close();
    }
}, { needed: false });

stop = false;
await check('no request to another origin, no script error', async () => {
    for (const { log } of [org, ...(reader ? [reader] : [])]) {
        // (data: URLs are Chromium's own: the icon of a date input)
        const foreign = log.requests.filter((u) => !u.startsWith('data:') && new URL(u).origin !== ORIGIN);
        assert(foreign.length === 0, `requests to other origins: ${foreign.join(', ')}`);
        assert(log.errors.length === 0, `script errors: ${log.errors.join('; ')}`);
    }
    assert(org.log.requests.length > 30, `only ${org.log.requests.length} requests seen`);
});

await browser.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
