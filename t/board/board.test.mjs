// board.test.mjs: the scoreboard page in headless Chromium (see board-test.sh).
// Checks run in order on one browser; each prints "ok" or "not ok"; the last line
// is "N passed, M failed".
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import puppeteer from 'puppeteer-core';

const BASE = process.env.BASE;
const ORIGIN = new URL(BASE).origin;
const OUT = process.env.OUT;
const BOARD = new URL('board/', BASE).href;
let passed = 0;
let failed = 0;

async function check(name, fn) {
    try {
        await fn();
        passed += 1;
        console.log(`ok - ${name}`);
    } catch (e) {
        failed += 1;
        console.log(`not ok - ${name}\n  ${String(e && e.stack || e).split('\n').slice(0, 4).join('\n  ')}`);
    }
}
function assert(cond, msg) { if (!cond) throw new Error(msg); }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The API, straight (as another judge's tablet would use it).
async function apiCall(path, { method = 'GET', token, body, headers = {} } = {}) {
    const h = { ...headers };
    if (token) h.Authorization = `Bearer ${token}`;
    if (body !== undefined) h['Content-Type'] = 'application/json';
    const res = await fetch(new URL(path, BASE), { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, etag: res.headers.get('ETag'), data: text ? JSON.parse(text) : null };
}
async function tokenOf(user) {
    const r = await apiCall('connect', { method: 'POST', body: { client_id: user, client_secret: user } });
    assert(r.status === 200, `login ${user}: ${r.status}`);
    return r.data.access_token;
}
const LANE = (c, z, h, v) => `competition/${c}/zone/${z}/heat/${h}/voie/${v}`;

const exe = existsSync('/usr/lib/chromium/chromium') ? '/usr/lib/chromium/chromium' : process.env.CHROMIUM;
const browser = await puppeteer.launch({
    executablePath: exe, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage();
await page.setViewport({ width: 1280, height: 900 });
const requests = [];
const dialogs = [];
const pageErrors = [];
page.on('request', (r) => requests.push(r.url()));
page.on('dialog', async (d) => { dialogs.push(d.message()); await d.dismiss(); });
page.on('pageerror', (e) => pageErrors.push(String(e)));
const shot = (name) => page.screenshot({ path: `${OUT}/shots/${name}.png`, fullPage: name !== 'big-screen' });
const judge = await tokenOf('judge');

async function goHash(hash) {
    await page.evaluate((h) => { location.hash = h; }, hash);
}
const liveState = () => page.$eval('#live-state', (e) => e.dataset.state);
async function waitLive(ms = 8000) {
    await page.waitForFunction(() => document.querySelector('#live-state')?.dataset.state === 'live', { timeout: ms });
}
// rows of every leaderboard table: [division, spot id, place text]
const boardRows = () => page.$$eval('#view table.board', (tables) => tables.map((t) => ({
    division: t.dataset.division,
    rows: [...t.querySelectorAll('tbody tr')].map((tr) => [tr.dataset.spotId, tr.querySelector('.place').textContent]),
})));

await check('log in through /connect; the token is in sessionStorage, not in the URL', async () => {
    await page.goto(BOARD, { waitUntil: 'networkidle0' });
    await page.waitForSelector('#login-form', { visible: true });
    await shot('login');
    await page.type('input[name=client_id]', 'judge');
    await page.type('input[name=client_secret]', 'nope');
    await page.click('#login-form button[type=submit]');
    await page.waitForFunction(() => document.querySelector('#login-error').textContent !== '', { timeout: 5000 });
    const err = await page.$eval('#login-error', (e) => e.textContent);
    assert(err === 'Invalid credentials', `wrong password shows "${err}"`);
    await page.$eval('input[name=client_secret]', (e) => { e.value = ''; });
    await page.type('input[name=client_secret]', 'judge');
    await page.click('#login-form button[type=submit]');
    await page.waitForSelector('#view table.board', { timeout: 8000 });
    const tok = await page.evaluate(() => sessionStorage.getItem('ranking.token'));
    assert(tok && tok.length > 20, 'no token in sessionStorage');
    assert(!page.url().includes(tok), 'token in the URL');
    assert(requests.every((u) => !u.includes(tok)), 'token in a request URL');
    await waitLive();
});

await check("the demo's overall leaderboard (competition 4) shows the API's places, ties shared", async () => {
    await goHash('#/c/4/leaderboard/overall');
    await page.waitForFunction(() => document.querySelector('#comp-name').textContent.includes('Lyon')
        && document.querySelectorAll('#view table.board').length > 0, { timeout: 8000 });
    const api = (await apiCall('competition/4/leaderboard', { token: judge })).data.leaderboard;
    const want = api.divisions.map((d) => {
        const count = new Map();
        for (const e of d.entries) count.set(e.rank, (count.get(e.rank) || 0) + 1);
        return { division: d.division ?? 'No division',
                 rows: d.entries.map((e) => [e.spot_id, e.rank === null ? '–' : `${count.get(e.rank) > 1 ? '=' : ''}${e.rank}`]) };
    });
    const got = (await boardRows()).map((t) => ({ division: t.division,
        rows: t.rows.map(([s, p]) => [s, p.replace(' (shared)', '')]) }));
    assert(JSON.stringify(got) === JSON.stringify(want), `page ${JSON.stringify(got)}\n  api  ${JSON.stringify(want)}`);
    assert(got.some((t) => t.rows.some(([, p]) => p.startsWith('='))), 'no shared place shown');
    await shot('leaderboard-overall');
});

await check('a lane PUT through the API appears on the page within 2 s, without reload', async () => {
    await goHash('#/c/4/leaderboard/31/RX');
    await page.waitForFunction(() => document.querySelector('#lb-division')?.value === 'RX'
        && document.querySelector('#view tr[data-spot-id="308"]'), { timeout: 8000 });
    await waitLive();
    const before = await page.$eval('#view tr[data-spot-id="308"] .place', (e) => e.textContent);
    assert(before === '8', `spot 308 starts at place ${before}`);
    await page.evaluate(() => { window.__sameDocument = true; });
    const put = await apiCall(LANE(4, 41, 401, 3014), { method: 'PUT', token: judge, body: { score: '7:00' } });
    assert(put.status === 200, `PUT ${put.status}`);
    const t0 = Date.now();
    await page.waitForFunction(() => document.querySelector('#view tr[data-spot-id="308"] .place')?.textContent === '1',
                               { timeout: 2000, polling: 50 });
    const ms = Date.now() - t0;
    assert(await page.evaluate(() => window.__sameDocument === true), 'the page was reloaded');
    const first = await page.$eval('#view table.board tbody tr', (tr) => tr.dataset.spotId);
    assert(first === '308', `first row is ${first}`);
    console.log(`  # seen on the page ${ms} ms after the PUT answer`);
    await shot('leaderboard-wod-live');
});

await check('heats view: running heats of competition 2 with their lanes, as the API gives them', async () => {
    await goHash('#/c/2/heats');
    await page.waitForSelector('#view table.heat[data-heat-id="253"]', { timeout: 8000 });
    const shown = await page.$$eval('#view table.heat', (ts) => ts.map((t) => t.dataset.heatId));
    assert(shown.includes('253') && shown.includes('254'), `running heats missing: ${shown}`);
    const lines = (await apiCall('competition/2/heat/253/line/', { token: judge })).data.lines;
    const spots = new Map((await apiCall('competition/2/spot/', { token: judge })).data.spots.map((s) => [s.id, s]));
    const want = lines.map((l) => [String(l.number), l.spot_name ?? '—', spots.get(l.spot_id)?.division ?? '', l.score ?? '', l.tiebreak ?? '']);
    const got = await page.$$eval('#view table.heat[data-heat-id="253"] tbody tr',
        (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    assert(JSON.stringify(got) === JSON.stringify(want), `page ${JSON.stringify(got)}\n  api  ${JSON.stringify(want)}`);
    await shot('heats');
});

const row = (lane) => `#view tr[data-lane-id="${lane}"]`;
async function enter(lane, score, tiebreak) {
    await page.$eval(`${row(lane)} input[name=score]`, (e) => { e.value = ''; });
    await page.type(`${row(lane)} input[name=score]`, score);
    if (tiebreak !== undefined) {
        await page.$eval(`${row(lane)} input[name=tiebreak]`, (e) => { e.value = ''; });
        await page.type(`${row(lane)} input[name=tiebreak]`, tiebreak);
    }
}
async function rowState(lane, ms = 5000) {
    await page.waitForFunction((sel) => ['ok', 'error', 'conflict'].includes(document.querySelector(sel)?.dataset.state),
                               { timeout: ms }, row(lane));
    return page.$eval(row(lane), (tr) => tr.dataset.state);
}

await check("judge mode: an entry round-trips (saved with Enter, read back from the API)", async () => {
    await goHash('#/c/2/judge/253');
    await page.waitForSelector(row(2012), { timeout: 8000 });
    await enter(2012, '97.5 kg', '1:02.5');
    await page.keyboard.press('Enter');
    const st = await rowState(2012);
    assert(st === 'ok', `row state ${st}: ${await page.$eval(row(2012), (tr) => tr.textContent)}`);
    const back = (await apiCall(LANE(2, 26, 253, 2012), { token: judge })).data.voie;
    assert(back.score === '97.5 kg' && back.tiebreak === '1:02.5', `stored ${JSON.stringify(back)}`);
    const shownVal = await page.$eval(`${row(2012)} input[name=score]`, (e) => e.value);
    assert(shownVal === '97.5 kg', `input shows ${shownVal}`);
});

await check("judge mode: an invalid score shows the API's 400 message next to the field", async () => {
    const api = await apiCall(LANE(2, 26, 253, 2011), { method: 'PUT', token: judge, body: { score: '95 kgs', tiebreak: null } });
    assert(api.status === 400, `API answered ${api.status}`);
    await enter(2011, '95 kgs');
    await page.click(`${row(2011)} button`);
    const st = await rowState(2011);
    assert(st === 'error', `row state ${st}`);
    const msg = await page.$eval(`${row(2011)} input[name=score]`, (e) => document.getElementById(e.getAttribute('aria-describedby')).textContent);
    assert(msg === api.data.message, `page "${msg}", API "${api.data.message}"`);
    assert(await page.$eval(`${row(2011)} input[name=score]`, (e) => e.getAttribute('aria-invalid')) === 'true', 'not marked invalid');
    const stored = (await apiCall(LANE(2, 26, 253, 2011), { token: judge })).data.voie.score;
    assert(stored === '95kg', `stored score changed to ${stored}`);
    await shot('judge-invalid');
});

await check('judge mode: a concurrent change gives the 412 prompt, nothing is overwritten (needs issue 17: per-lane ETag + If-Match)', async () => {
    await enter(2014, '103kg');                 // the judge starts typing...
    const other = await apiCall(LANE(2, 26, 253, 2014), { method: 'PUT', token: judge, body: { score: '104kg' } });
    assert(other.status === 200, `other judge's PUT ${other.status}`);
    await sleep(1500);                          // ...the other judge's change arrives live
    await page.click(`${row(2014)} button`);
    const st = await rowState(2014);
    const stored = (await apiCall(LANE(2, 26, 253, 2014), { token: judge })).data.voie.score;
    await shot('judge-conflict');
    assert(st === 'conflict', `row state "${st}" (the PUT with a stale If-Match was not refused); stored score now ${stored}`);
    assert(stored === '104kg', `stored score ${stored}: the other judge's entry was overwritten`);
    await page.click(`${row(2014)} button.reload`);
    await page.waitForFunction((sel) => document.querySelector(sel).value === '104kg', { timeout: 5000 }, `${row(2014)} input[name=score]`);
});

await check('a team named <img src=x onerror=alert(1)> is shown as text and runs nothing', async () => {
    const evil = '<img src=x onerror=alert(1)>';
    execFileSync('runuser', ['-u', 'www-data', '--', 'sqlite3', process.env.DB,
                             `UPDATE spot SET name = '${evil}' WHERE id IN (301, 153)`]);
    await goHash('#/c/4/leaderboard/overall');
    await page.waitForFunction(() => document.querySelector('#view tr[data-spot-id="301"] .team'), { timeout: 8000 });
    await page.waitForFunction((n) => document.querySelector('#view tr[data-spot-id="301"] .team').textContent === n,
                               { timeout: 5000 }, evil);
    await goHash('#/c/2/judge/253');
    await page.waitForFunction((n) => document.querySelector('#view tr[data-lane-id="2014"] .team')?.textContent === n,
                               { timeout: 8000 }, evil);
    await goHash('#/c/2/heats');
    await page.waitForFunction((n) => [...document.querySelectorAll('#view table.heat .team')].some((e) => e.textContent === n),
                               { timeout: 8000 }, evil);
    await sleep(500);
    const imgs = await page.$$eval('img', (l) => l.length);
    assert(imgs === 0, `${imgs} img element(s) in the page`);
    assert(dialogs.length === 0, `dialogs: ${dialogs}`);
    assert(!requests.some((u) => u.endsWith('/x')), 'the page requested "x"');
});

await check('live state: the stream reconnects after a server restart (Last-Event-ID) and misses nothing', async () => {
    await goHash('#/c/4/leaderboard/31/RX');
    await page.waitForSelector('#view tr[data-spot-id="306"]', { timeout: 8000 });
    await waitLive();
    await page.evaluate(() => {
        window.__states = [];
        new MutationObserver(() => window.__states.push(document.querySelector('#live-state').dataset.state))
            .observe(document.querySelector('#live-state'), { attributes: true });
    });
    execFileSync('apache2', ['-f', process.env.CONF, '-k', 'restart']);
    await page.waitForFunction(() => window.__states.includes('reconnecting'), { timeout: 8000 });
    const text = await page.$eval('#live-state', (e) => e.textContent);
    const put = await apiCall(LANE(4, 41, 401, 3012), { method: 'PUT', token: judge, body: { score: '6:00' } });
    assert(put.status === 200, `PUT ${put.status}`);
    await waitLive(15000);
    await page.waitForFunction(() => document.querySelector('#view tr[data-spot-id="306"] .place')?.textContent === '1',
                               { timeout: 5000 });
    console.log(`  # states: ${await page.evaluate(() => window.__states.join(' > '))}; shown "${text}" meanwhile`);
});

await check('fallback: with the event stream refused, the page long-polls and still follows a PUT', async () => {
    await page.setRequestInterception(true);
    const onReq = (r) => (r.url().endsWith('/events') ? r.abort('connectionrefused') : r.continue());
    page.on('request', onReq);
    try {
        execFileSync('apache2', ['-f', process.env.CONF, '-k', 'restart']);   // drops the open stream
        await page.waitForFunction(() => document.querySelector('#live-state').dataset.state === 'polling', { timeout: 20000 });
        const text = await page.$eval('#live-state', (e) => e.textContent);
        assert(text === 'live (polling)', `state text "${text}"`);
        await sleep(500);
        const put = await apiCall(LANE(4, 41, 401, 3013), { method: 'PUT', token: judge, body: { score: '5:00' } });
        assert(put.status === 200, `PUT ${put.status}`);
        await page.waitForFunction(() => document.querySelector('#view tr[data-spot-id="307"] .place')?.textContent === '1',
                                   { timeout: 3000 });
    } finally {
        page.off('request', onReq);
        await page.setRequestInterception(false);
    }
});

await check('big screen: large type, one division at a time, cycles with the keyboard', async () => {
    await page.setViewport({ width: 1920, height: 1080 });
    await goHash('#/c/4/big');
    await page.waitForSelector('body.big #view .stage table.board', { timeout: 8000 });
    const first = await page.$eval('.slide-title', (e) => e.textContent);
    const fontPx = await page.$eval('.stage table.board', (t) => parseFloat(getComputedStyle(t).fontSize));
    assert(fontPx >= 48, `font size ${fontPx}px`);
    assert((await page.$$('.stage table.board')).length === 1, 'more than one division at once');
    await page.screenshot({ path: `${OUT}/shots/big-screen.png` });
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((f) => document.querySelector('.slide-title').textContent !== f, { timeout: 3000 }, first);
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction((f) => document.querySelector('.slide-title').textContent === f, { timeout: 3000 }, first);
    await page.setViewport({ width: 1280, height: 900 });
});

await check('phone width: no horizontal scrolling of the page', async () => {
    await page.setViewport({ width: 375, height: 800, isMobile: true });
    await goHash('#/c/2/judge/253');
    await page.waitForSelector(row(2012), { timeout: 8000 });
    const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await shot('judge-phone');
    assert(over <= 0, `page is ${over}px wider than the screen`);
    await page.setViewport({ width: 1280, height: 900 });
});

await check('log out forgets the token', async () => {
    await page.click('#logout');
    await page.waitForSelector('#login-form', { visible: true });
    assert(await page.evaluate(() => sessionStorage.getItem('ranking.token')) === null, 'token kept');
});

await check('the page made no request to another origin and raised no script error', async () => {
    const foreign = requests.filter((u) => new URL(u).origin !== ORIGIN);
    assert(requests.length > 20, `only ${requests.length} requests seen`);
    assert(foreign.length === 0, `requests to other origins: ${foreign.join(', ')}`);
    assert(pageErrors.length === 0, `script errors: ${pageErrors.join('; ')}`);
});

await browser.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
