// board.test.mjs: the scoreboard page in headless Chromium (see board-test.sh).
// Checks run in order on one browser; each prints "ok" or "not ok"; the last line
// is "N passed, M failed".
import { execFileSync } from 'node:child_process';
import { BASE, apiCall, assert, check, launchBrowser, logIn, newTab as newTabIn, sleep, summary, tokenOf } from './lib.mjs';

const ORIGIN = new URL(BASE).origin;
const OUT = process.env.OUT;
const BOARD = new URL('board/', BASE).href;

const LANE = (c, z, h, v) => `competition/${c}/zone/${z}/heat/${h}/voie/${v}`;
// After "apache2 -k restart": until the server listens again (a request sent in the
// meantime fails to connect, on a loaded machine).
async function serverBack(ms = 10000) {
    for (const end = Date.now() + ms; Date.now() < end; await sleep(100)) {
        try {
            if ((await fetch(new URL('competition/', BASE), { method: 'OPTIONS' })).status === 204) return;
        } catch { /* not yet */ }
    }
    throw new Error('the server did not come back after its restart');
}

const browser = await launchBrowser();
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
const organizer = await tokenOf('organizer');   // validations need an organizer (API.md part 3)

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

// What of the page shows: [id or selector, visible?] for the header's parts.
const CHROME = ['#nav', '#tools', '#comp-select', '#live-state', '#logout', '#menu'];
const visibleOf = (p, sels) => p.evaluate((list) => Object.fromEntries(list.map((s) => {
    const el = document.querySelector(s);
    return [s, Boolean(el && el.checkVisibility())];
})), sels);

await check('before login only the login form shows (no competition list, live state or Log out)', async () => {
    await page.goto(BOARD, { waitUntil: 'networkidle0' });
    await page.waitForSelector('#login-form', { visible: true });
    const vis = await visibleOf(page, CHROME);
    const shown = Object.entries(vis).filter(([, v]) => v).map(([k]) => k);
    assert(shown.length === 0, `visible on the login screen: ${shown.join(', ')}`);
    const viewText = await page.$eval('#view', (e) => e.textContent.trim());
    assert(viewText === '', `the view shows "${viewText}"`);
    const err = await page.$eval('#login-error', (e) => e.textContent);
    assert(err === '', `an error before anything was typed: "${err}"`);
});

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

// (the heats view has rows of the same lanes: wait for the judge's own)
const row = (lane) => `#view[data-view="judge"] tr[data-lane-id="${lane}"]`;
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
    await serverBack();
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
        await serverBack();
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

// ---------------------------------------------------------------------------------
// Where the package puts it, and "My team" on a phone (360 x 800), each in a browser
// context of its own (empty storage, its own request log).

const PHONE = { width: 360, height: 800, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const newTab = (viewport) => newTabIn(browser, viewport);
const phoneShot = (p, name) => p.screenshot({ path: `${OUT}/shots/${name}.png`, fullPage: true });

// The page's network, as Chromium's DevTools protocol sees it: every request (URL,
// method, type, headers, status), and every chunk of data received, with its bytes
// and, for the event streams (/events), its text (Network.streamResourceContent).
async function netLog(p) {
    const cdp = await p.createCDPSession();
    await cdp.send('Network.enable');
    const log = { requests: new Map(), chunks: [], cdp };
    cdp.on('Network.requestWillBeSent', (e) => log.requests.set(e.requestId, {
        id: e.requestId, url: e.request.url, method: e.request.method, type: e.type,
        headers: Object.fromEntries(Object.entries(e.request.headers).map(([k, v]) => [k.toLowerCase(), v])),
        at: Date.now() }));
    cdp.on('Network.responseReceived', (e) => {
        const r = log.requests.get(e.requestId);
        if (!r) return;
        r.status = e.response.status;
        r.contentType = e.response.headers['Content-Type'] || e.response.headers['content-type'];
        if (new URL(r.url).pathname.endsWith('/events')) {
            cdp.send('Network.streamResourceContent', { requestId: e.requestId }).then((b) => {
                if (b.bufferedData) log.chunks.push({ id: e.requestId, bytes: 0, text: atob(b.bufferedData), at: Date.now() });
                r.streamed = true;
            }, () => {});
        }
    });
    cdp.on('Network.dataReceived', (e) => log.chunks.push({
        id: e.requestId, bytes: e.encodedDataLength, text: e.data ? atob(e.data) : null, at: Date.now() }));
    log.since = (t) => ({ requests: [...log.requests.values()].filter((r) => r.at >= t),
                          chunks: log.chunks.filter((c) => c.at >= t) });
    log.streams = () => [...log.requests.values()].filter((r) => new URL(r.url).pathname.endsWith('/events'));
    log.longPolls = () => [...log.requests.values()].filter((r) => /\/heat\/\?limit=1$/.test(r.url) || r.headers.prefer);
    return log;
}

// Words of team names that the browser laid out on more than one line: every text
// node under `sel`, cut into words (a break right after a hyphen is an ordinary line
// break, not one inside a word), each measured with Range.getClientRects().
const brokenWords = (p, sel) => p.evaluate((s) => {
    const bad = [];
    let words = 0;
    for (const el of document.querySelectorAll(s)) {
        if (!el.checkVisibility()) continue;
        const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let n = walk.nextNode(); n; n = walk.nextNode()) {
            const re = /[^\s\-\u2010]+[-\u2010]?/g;
            for (let m = re.exec(n.data); m; m = re.exec(n.data)) {
                const r = document.createRange();
                r.setStart(n, m.index);
                r.setEnd(n, m.index + m[0].length);
                const lines = new Set([...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top)));
                words += 1;
                if (lines.size > 1) bad.push(`"${m[0]}" of "${n.data}" on ${lines.size} lines`);
            }
        }
    }
    return { bad, words };
}, sel);

// The card's expected values, from the API's own JSON: place (shared as "=N"), points,
// the running and next heats of a team and its lane in each.
async function expectedCard(c, spotId, token, base = BASE) {
    const get = async (path) => {
        const r = await fetch(new URL(path, base), { headers: token ? { Authorization: `Bearer ${token}` } : {} });
        assert(r.ok, `GET ${path}: ${r.status}`);
        return r.json();
    };
    const spot = (await get(`competition/${c}/spot/${spotId}`)).spot;
    const comp = (await get(`competition/${c}`)).competition;
    const lb = (await get(`competition/${c}/leaderboard?division=${encodeURIComponent(spot.division)}`)).leaderboard;
    const entries = lb.divisions[0].entries;
    const e = entries.find((x) => x.spot_id === spotId);
    const shared = entries.filter((x) => x.rank === e.rank).length > 1;
    const heats = (await get(`competition/${c}/heat/`)).heats;
    const mine = [];
    for (const x of heats.filter((y) => y.status !== 'finished')) {
        const l = (await get(`competition/${c}/heat/${x.id}/line/`)).lines.find((y) => y.spot_id === spotId);
        if (l) mine.push({ heat: x, lane: l.number });
    }
    const next = mine.find((m) => m.heat.status === 'scheduled');
    const hhmm = (iso) => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
                                                             timeZone: comp.timezone }).format(new Date(iso));
    return { place: `${shared ? '=' : ''}${e.rank}`, points: String(e.points),
             running: mine.filter((m) => m.heat.status === 'running').map((m) => [m.heat.id, String(m.lane)]),
             next: next ? [next.heat.id, String(next.lane), hhmm(next.heat.start_time)] : null };
}
// What the card shows, in the same shape.
const shownCard = (p) => p.evaluate(() => {
    const q = (s, root = document) => root.querySelector(s);
    const hhmm = (t) => {
        const m = /(\d{1,2}):(\d{2})\s*([AaPp])?/.exec(t || '');
        if (!m) return null;
        let hh = Number(m[1]) % (m[3] ? 12 : 24);
        if (m[3] && /p/i.test(m[3])) hh += 12;
        return `${String(hh).padStart(2, '0')}:${m[2]}`;
    };
    const nx = q('#view .heat-card.next');
    return { place: q('#view [data-field=place]')?.textContent, points: q('#view [data-field=points]')?.textContent,
             running: [...document.querySelectorAll('#view .heat-card.running')]
                 .map((a) => [a.dataset.heatId, q('[data-field=lane]', a).textContent]),
             next: nx ? [nx.dataset.heatId, q('[data-field=lane]', nx).textContent,
                         hhmm(q('[data-field=start]', nx)?.textContent)] : null };
});
async function pickTeam(p, letters) {
    await p.waitForSelector('#me-q', { visible: true, timeout: 8000 });
    await p.$eval('#me-q', (e) => { e.value = ''; });
    await p.type('#me-q', letters);
    await p.waitForSelector('#me-found .pick', { timeout: 3000 });
    return p.$$eval('#me-found .pick', (bs) => bs.map((b) => b.dataset.spotId));
}

await check('the packaged layout (page at /board, API at /api/v1): config.json leads the page to the API; login works', async () => {
    const { ctx, p, log } = await newTab();
    try {
        const at = new URL('pkg/board/', BASE).href;
        await p.goto(at, { waitUntil: 'networkidle0' });
        await p.waitForSelector('#login-form', { visible: true });
        const apiField = await p.$eval('input[name=api]', (e) => e.value);
        assert(apiField === new URL('pkg/api/v1/', BASE).href, `API address shown: ${apiField}`);
        assert(await p.$eval('#login-error', (e) => e.textContent) === '', 'an error before login');
        await logIn(p, 'demo');
        await p.waitForSelector('#view table.board', { timeout: 8000 });
        const connect = log.requests.filter((u) => u.endsWith('/connect'));
        assert(connect.length === 1 && connect[0] === new URL('pkg/api/v1/connect', BASE).href, `connect at ${connect}`);
        const apiCalls = log.requests.filter((u) => /\/competition\//.test(u));
        assert(apiCalls.length > 0 && apiCalls.every((u) => u.startsWith(new URL('pkg/api/v1/', BASE).href)),
               `API requests outside /pkg/api/v1: ${apiCalls.filter((u) => !u.includes('/pkg/api/v1/'))}`);
        await p.screenshot({ path: `${OUT}/shots/package-layout.png` });
        assert(log.errors.length === 0, `script errors: ${log.errors}`);
    } finally {
        await ctx.close();
    }
});

await check('with no API where the page looks, the login screen says so and names the addresses tried', async () => {
    const { ctx, p } = await newTab();
    try {
        await p.goto(new URL('lost/board/', BASE).href, { waitUntil: 'networkidle0' });
        await p.waitForFunction(() => document.querySelector('#login-error').textContent !== '', { timeout: 5000 });
        const err = await p.$eval('#login-error', (e) => e.textContent);
        assert(err.startsWith('Cannot find the ranking API'), `message: "${err}"`);
        assert(err.includes(new URL('lost/', BASE).href) && err.includes('HTTP 404'), `no address or status in "${err}"`);
        assert(await p.$eval('#login-api', (d) => d.open), 'the API address field is not opened');
        await p.screenshot({ path: `${OUT}/shots/no-api.png` });
        // typing the right address then logs in
        await p.$eval('input[name=api]', (e) => { e.value = ''; });
        await p.type('input[name=api]', new URL('pkg/api/v1/', BASE).href);
        await logIn(p, 'demo');
        await p.waitForSelector('#view table.board', { timeout: 8000 });
    } finally {
        await ctx.close();
    }
});

// A reader's phone (logged in) and a spectator's (public mount, no login).
const reader = await newTab(PHONE);
const spectator = await newTab(PHONE);
const demoTok = await tokenOf('demo');
const spots2 = (await apiCall('competition/2/spot/', { token: demoTok })).data.spots;
const fold = (t) => t.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

await check('phone 360x800: before login only the login form; then "My team" of the running competition', async () => {
    const p = reader.p;
    await p.goto(BOARD, { waitUntil: 'networkidle0' });
    await p.waitForSelector('#login-form', { visible: true });
    const shown = Object.entries(await visibleOf(p, CHROME)).filter(([, v]) => v).map(([k]) => k);
    assert(shown.length === 0, `visible on the login screen: ${shown.join(', ')}`);
    await phoneShot(p, 'phone-login');
    await logIn(p, 'demo');
    await p.waitForSelector('#me-q', { visible: true, timeout: 8000 });
    assert(p.url().endsWith('#/c/2/me'), `landed on ${p.url()}`);
    const head = await p.$eval('#top', (e) => e.getBoundingClientRect().height);
    assert(head <= 100, `the header is ${head}px high`);
});

await check('phone: three letters find the teams whose name or bib has them (as the API lists the teams)', async () => {
    const p = reader.p;
    const got = await pickTeam(p, 'dis');
    const want = spots2.filter((x) => fold(x.name).includes('dis')).map((x) => x.id);
    assert(want.length > 0 && got.length === want.length && want.every((id) => got.includes(id)),
           `page ${got}, API ${want}`);
    const byBib = await pickTeam(p, '26');
    assert(byBib[0] === spots2.find((x) => x.bib === 26).id, `bib 26 finds ${byBib}`);
    await pickTeam(p, 'dis');
    await phoneShot(p, 'phone-find');
});

let card156 = null;
await check("phone: my team's card shows the place, points, running and next heat with lane the API gives", async () => {
    const p = reader.p;
    await p.click('#me-found .pick[data-spot-id="156"]');
    await p.waitForSelector('#view .me-card[data-spot-id="156"]', { timeout: 8000 });
    await p.waitForNetworkIdle({ idleTime: 300, concurrency: 1, timeout: 8000 }).catch(() => {});
    card156 = await expectedCard(2, '156', demoTok);
    const got = await shownCard(p);
    assert(card156.next && card156.running.length, `the API gives no next/running heat: ${JSON.stringify(card156)}`);
    assert(JSON.stringify(got) === JSON.stringify(card156), `page ${JSON.stringify(got)}\n  api  ${JSON.stringify(card156)}`);
    const wodText = await p.$eval('#view .heat-card.next [data-field=wod]', (e) => e.textContent);
    const heat = (await apiCall(`competition/2/heat/${card156.next[0]}`, { token: demoTok })).data.heat;
    const wod = (await apiCall(`competition/2/wod/${heat.wod_id}`, { token: demoTok })).data.wod;
    const zone = (await apiCall(`competition/2/zone/${heat.zone_id}`, { token: demoTok })).data.zone;
    const zoneText = await p.$eval('#view .heat-card.next [data-field=zone]', (e) => e.textContent);
    const heatText = await p.$eval('#view .heat-card.next [data-field=heat]', (e) => e.textContent);
    assert(wodText === wod.name && zoneText === zone.name && heatText === `Heat ${heat.number}`,
           `next heat shows ${wodText} / ${zoneText} / ${heatText}`);
    assert(await p.evaluate(() => JSON.parse(localStorage.getItem('ranking.myteam') || '{}')) !== null, 'not remembered');
    await phoneShot(p, 'phone-card');
    await p.screenshot({ path: `${OUT}/shots/phone-card-screen.png` });
});

await check('phone: a lane PUT (the team moves lane) shows on the reader\'s phone within 2 s, without reload', async () => {
    const p = reader.p;
    await p.waitForFunction(() => document.querySelector('#live-state')?.dataset.state === 'live', { timeout: 8000 });
    await p.evaluate(() => { window.__same = true; });
    const put = await apiCall(LANE(2, 27, 257, 2024), { method: 'PUT', token: judge, body: { number: 4 } });
    assert(put.status === 200, `PUT ${put.status}`);
    const t0 = Date.now();
    await p.waitForFunction(() => document.querySelector('#view .heat-card.next [data-field=lane]')?.textContent === '4',
                            { timeout: 2000, polling: 50 });
    const ms = Date.now() - t0;
    assert(await p.evaluate(() => window.__same === true), 'the page was reloaded');
    const want = await expectedCard(2, '156', demoTok);
    assert(want.next[1] === '4', `the API says lane ${want.next[1]}`);
    console.log(`  # seen on the phone ${ms} ms after the PUT answer (stream: live)`);
});

await check('phone 360: no word of a team name is broken across lines (card, leaderboards, heats, search)', async () => {
    const p = reader.p;
    const report = [];
    let words = 0;
    const measure = async (where) => {
        const r = await brokenWords(p, '#view .team');
        words += r.words;
        report.push(...r.bad.map((b) => `${where}: ${b}`));
        return r.words;
    };
    assert(await measure('my team') >= 6, 'too few words measured on the card');
    await p.click('#me-change');
    await pickTeam(reader.p, 'r');               // many results
    await measure('search');
    await p.$eval('#me-q', (e) => { e.value = ''; e.dispatchEvent(new Event('input')); });
    for (const [hash, sel, shotName] of [['#/c/2/leaderboard/overall', '#view table.board', 'phone-leaderboard'],
                                          ['#/c/4/leaderboard/overall', '#view table.board', null],
                                          ['#/c/2/heats', '#view table.heat', 'phone-heats'],
                                          ['#/c/1/heats', '#view table.heat', null]]) {
        await p.evaluate((h) => { location.hash = h; }, hash);
        await p.waitForSelector(sel, { timeout: 8000 });
        await sleep(200);
        assert(await measure(hash) > 10, `too few words measured at ${hash}`);
        if (shotName) await phoneShot(p, shotName);
    }
    assert(report.length === 0, report.join('\n  '));
    // leaderboards at 360: place, team and points; the WOD results on demand
    await p.evaluate(() => { location.hash = '#/c/2/leaderboard/overall'; });
    await p.waitForSelector('#view table.board');
    const cols = () => p.$eval('#view table.board thead tr', (tr) => [...tr.children].filter((c) => c.checkVisibility()).map((c) => c.textContent));
    // the view may be drawn again meanwhile (the stream's first reload): wait for its header
    let before = [];
    for (let i = 0; i < 50 && before.length === 0; i++) {
        before = await cols().catch(() => []);
        if (before.length === 0) await sleep(100);
    }
    assert(JSON.stringify(before) === JSON.stringify(['Place', 'Team', 'Points']), `columns ${before}`);
    await p.click('#view .wod-toggle');
    const after = await cols();
    assert(after.length > 3, `WOD results not shown on demand: ${after}`);
    await measure('leaderboard with WOD results');
    await phoneShot(p, 'phone-leaderboard-wods');
    assert(report.length === 0, report.join('\n  '));
    console.log(`  # ${words} words measured`);
    await p.evaluate(() => { location.hash = '#/c/2/me'; });
    await p.waitForSelector('#view .me-card[data-spot-id="156"]', { timeout: 8000 });
});

await check('phone: the cut line, from "advancing" on overall entries (API Part 3; injected into the answer here)', async () => {
    const p = reader.p;
    const lb = (await apiCall('competition/2/leaderboard?division=Masters', { token: demoTok })).data;
    const entries = lb.leaderboard.divisions[0].entries;
    for (const e of entries) e.advancing = e.rank !== null && e.rank <= 1;
    const onReq = (r) => {
        const u = new URL(r.url());
        if (u.pathname.endsWith('/competition/2/leaderboard') && u.searchParams.get('division') === 'Masters') {
            return r.respond({ status: 200, contentType: 'application/json', body: JSON.stringify(lb) });
        }
        return r.continue();
    };
    await p.setRequestInterception(true);
    p.on('request', onReq);
    try {
        await p.evaluate(() => { location.hash = '#/c/2/heats'; });
        await p.waitForSelector('#view[data-view="heats"] table.heat', { timeout: 8000 });
        await p.evaluate(() => { location.hash = '#/c/2/me'; });
        await p.waitForSelector('#view .me-card [data-field=advancing]', { timeout: 8000 });
        const mine = entries.find((e) => e.spot_id === '156');
        const text = await p.$eval('#view .me-card [data-field=advancing]', (e) => e.textContent);
        assert(text.startsWith(mine.advancing ? 'Above the cut line' : 'Below the cut line'), `card says "${text}"`);
        const around = await p.$eval('#view .me-board tr.cut-line', (tr) => [tr.previousElementSibling?.dataset.spotId,
                                                                              tr.nextElementSibling?.dataset.spotId]);
        const last = entries.filter((e) => e.advancing).pop();
        const first = entries.find((e) => !e.advancing);
        assert(around[0] === last.spot_id && around[1] === first.spot_id, `cut line between ${around}`);
        assert(await p.$$eval('#view tr.cut-line', (l) => l.length) === 1, 'more than one cut line');
        await phoneShot(p, 'phone-cut-line');
    } finally {
        p.off('request', onReq);
        await p.setRequestInterception(false);
    }
});

await check('spectator on a public mount, no login: first view of competition 4 within 100 KB, only this origin', async () => {
    const { p, log } = spectator;
    const cdp = await p.createCDPSession();
    await cdp.send('Network.enable');
    const got = new Map();
    cdp.on('Network.responseReceived', (e) => got.set(e.requestId, { url: e.response.url, bytes: 0 }));
    cdp.on('Network.dataReceived', (e) => { const r = got.get(e.requestId); if (r) r.bytes += e.encodedDataLength; });
    cdp.on('Network.loadingFinished', (e) => { const r = got.get(e.requestId); if (r) r.total = e.encodedDataLength; });
    await p.goto(new URL('pub/board/#/c/4/me', BASE).href);
    const found = await pickTeam(p, 'ger');
    const ger = (await apiCall('competition/4/spot/', { token: demoTok })).data.spots.filter((x) => fold(x.name).includes('ger'));
    assert(found.length === ger.length && found.length > 0, `"ger" finds ${found}, API ${ger.map((x) => x.id)}`);
    await p.click(`#me-found .pick[data-spot-id="${ger[0].id}"]`);
    await p.waitForSelector(`#view .me-card[data-spot-id="${ger[0].id}"]`, { timeout: 8000 });
    await p.waitForNetworkIdle({ idleTime: 500, concurrency: 1, timeout: 10000 });
    const bytes = [...got.values()].reduce((n, r) => n + (r.total ?? r.bytes), 0);
    const list = [...got.values()].map((r) => `${new URL(r.url).pathname}${new URL(r.url).search} ${r.total ?? r.bytes}`);
    console.log(`  # first view: ${got.size} responses, ${bytes} bytes transferred (headers included)`);
    for (const l of list) console.log(`  #   ${l}`);
    assert(bytes <= 100 * 1024, `${bytes} bytes`);
    assert(!log.requests.some((u) => u.includes('/judge.js')), "the judges' page was downloaded");
    const foreign = log.requests.filter((u) => new URL(u).origin !== ORIGIN);
    assert(foreign.length === 0, `requests to other origins: ${foreign}`);
    assert(!(await p.evaluate(() => sessionStorage.getItem('ranking.token'))), 'a token without login');
    const want = await expectedCard(4, ger[0].id, null, new URL('pub/api/v1/', BASE).href);
    const shownNow = await shownCard(p);
    assert(shownNow.place === want.place && shownNow.points === want.points,
           `page ${JSON.stringify(shownNow)}, API ${JSON.stringify(want)}`);
    await phoneShot(p, 'phone-public-finished');
    await cdp.detach();
});

await check('spectator (public mount, no login): the lane PUT shows within 2 s through the anonymous event stream; the team is remembered across a reload', async () => {
    const { p } = spectator;
    const net = await netLog(p);
    await p.goto(new URL('pub/board/#/c/2/me', BASE).href);
    await pickTeam(p, 'dis');
    await p.click('#me-found .pick[data-spot-id="156"]');
    await p.waitForSelector('#view .me-card[data-spot-id="156"]', { timeout: 8000 });
    await p.reload();
    await p.waitForSelector('#view .me-card[data-spot-id="156"] .heat-card.next', { timeout: 8000 });
    assert(!(await p.$eval('#me-q', (e) => e.checkVisibility())), 'the search shows although the team is remembered');
    const lane = await p.$eval('#view .heat-card.next [data-field=lane]', (e) => e.textContent);
    assert(lane === '4', `lane ${lane}`);
    await p.waitForFunction(() => ['live', 'polling'].includes(document.querySelector('#live-state')?.dataset.state),
                            { timeout: 8000 });
    await sleep(300);
    const state = await p.$eval('#live-state', (e) => e.dataset.state);
    assert(state === 'live', `live state "${state}": not the anonymous stream`);
    assert(await p.$eval('#live-state', (e) => e.checkVisibility() && e.textContent === 'live'), 'the live state is not shown');
    const t1 = Date.now();
    const put = await apiCall(LANE(2, 27, 257, 2024), { method: 'PUT', token: judge, body: { number: 1 } });
    assert(put.status === 200, `PUT ${put.status}`);
    const t0 = Date.now();
    await p.waitForFunction(() => document.querySelector('#view .heat-card.next [data-field=lane]')?.textContent === '1',
                            { timeout: 2000, polling: 50 });
    const ms = Date.now() - t0;
    const want = await expectedCard(2, '156', null, new URL('pub/api/v1/', BASE).href);
    assert(JSON.stringify(await shownCard(p)) === JSON.stringify(want), `card differs from the API: ${JSON.stringify(want)}`);
    // the page got it through a stream it opened without a token, and made no long poll
    const open = net.streams().filter((r) => r.url === new URL('pub/api/v1/competition/2/events', BASE).href
                                         && r.status === 200);
    assert(open.length >= 1, `no stream of competition 2 opened: ${JSON.stringify(net.streams())}`);
    const st = open[open.length - 1];
    assert(['Fetch', 'EventSource'].includes(st.type) && st.method === 'GET', `stream request ${st.type} ${st.method}`);
    assert(st.headers.accept === 'text/event-stream' && !st.headers.authorization,
           `stream request headers ${JSON.stringify(st.headers)}`);
    assert((st.contentType || '').startsWith('text/event-stream'), `stream answer ${st.contentType}`);
    assert(net.longPolls().length === 0, `long polls: ${net.longPolls().map((r) => r.url)}`);
    const laneEvents = net.chunks.filter((c) => c.id === st.id && c.at >= t1 && c.text && /^event: lane$/m.test(c.text));
    assert(st.streamed, 'the stream\'s content cannot be read (Network.streamResourceContent)');
    assert(laneEvents.length >= 1, 'the lane event did not come through the stream');
    console.log(`  # seen ${ms} ms after the PUT answer, through the anonymous event stream ` +
                `(${st.type} ${new URL(st.url).pathname}, no Authorization, no long poll)`);
    await phoneShot(p, 'phone-public');
    await net.cdp.detach();
});

await check('phone: a team named <img src=x onerror=alert(1)> is found and shown as text, runs nothing', async () => {
    const { p, log } = spectator;
    const evil = '<img src=x onerror=alert(1)>';
    await p.click('#me-change');
    const found = await pickTeam(p, 'onerror');
    const evilId = spots2.find((x) => x.id === '153').id;
    assert(found.includes(evilId), `search finds ${found}`);
    const label = await p.$eval(`#me-found .pick[data-spot-id="${evilId}"] .team`, (e) => e.textContent);
    assert(label === evil, `result shows "${label}"`);
    await p.click(`#me-found .pick[data-spot-id="${evilId}"]`);
    await p.waitForSelector(`#view .me-card[data-spot-id="${evilId}"]`, { timeout: 8000 });
    assert(await p.$eval('#view .me-name', (e) => e.textContent) === evil, 'name not shown as text');
    await sleep(500);
    assert(await p.$$eval('img', (l) => l.length) === 0, 'an img element in the page');
    assert(log.dialogs.length === 0 && reader.log.dialogs.length === 0, `dialogs: ${log.dialogs}`);
    assert(!log.requests.some((u) => u.endsWith('/x')), 'the page requested "x"');
});

// Competition 8001 (board-test.sh): publication validated.  On the spectator's phone
// (public mount, no login), Wall Ballers: an entry waits for its validation.
const PUB = new URL('pub/api/v1/', BASE).href;
const C8 = (z, hh, v) => LANE(8001, z, hh, v);
const wodRow = (p, wod) => p.evaluate((w) => {
    const tr = document.querySelector(`#view .me-wods tr[data-wod-id="${w}"]`);
    return tr ? { place: tr.querySelector('.place').textContent, score: tr.querySelector('.score').firstChild.textContent,
                  provisional: tr.dataset.status === 'provisional' && Boolean(tr.querySelector('.prov')) } : null;
}, wod);
async function waitRow(p, wod, want, ms = 2000) {
    await p.waitForFunction((w, sc, prov) => {
        const tr = document.querySelector(`#view .me-wods tr[data-wod-id="${w}"]`);
        return tr && tr.querySelector('.score').firstChild.textContent === sc
            && (prov === null || (tr.dataset.status === 'provisional') === prov);
    }, { timeout: ms, polling: 50 }, wod, want.score, want.provisional ?? null);
}
const apiRequests = (list) => list.filter((r) => new URL(r.url).pathname.includes('/api/v1/competition/'));
let net8 = null;
let judgePhone = null;

await check('validated competition: a lane PUT does not change the spectator\'s phone; its validation shows within 2 s, without reload', async () => {
    const { p } = spectator;
    net8 = await netLog(p);
    await p.goto(new URL('pub/board/#/c/8001/me', BASE).href);
    const found = await pickTeam(p, 'wal');
    assert(found.length === 1 && found[0] === '8103', `"wal" finds ${found}`);
    await p.click('#me-found .pick[data-spot-id="8103"]');
    await p.waitForSelector('#view .me-card[data-spot-id="8103"] .me-wods', { timeout: 8000 });
    // a judge's phone beside it (logged in: the full view)
    judgePhone = await newTab(PHONE);
    const jp = judgePhone.p;
    await jp.goto(`${BOARD}#/c/8001/me`);
    await logIn(jp, 'judge');
    await pickTeam(jp, 'wal');
    await jp.click('#me-found .pick[data-spot-id="8103"]');
    await jp.waitForSelector('#view .me-card[data-spot-id="8103"] .me-wods', { timeout: 8000 });
    for (const x of [p, jp]) {
        await x.waitForFunction(() => document.querySelector('#live-state')?.dataset.state === 'live', { timeout: 8000 });
        await x.waitForNetworkIdle({ idleTime: 500, concurrency: 1, timeout: 10000 });
    }
    const before = await wodRow(p, '8011');
    const placeBefore = await p.$eval('#view [data-field=place]', (e) => e.textContent);
    assert(before && before.score === '–' && !before.provisional, `Row Ladder shows ${JSON.stringify(before)}`);
    assert(JSON.stringify(await wodRow(jp, '8011')) === JSON.stringify(before), 'the judge\'s phone differs before the entry');
    await p.evaluate(() => { window.__same = true; });

    // the entry: the judge's phone shows it, marked provisional; the spectator's does not
    const t0 = Date.now();
    const put = await apiCall(C8(8021, 8201, 8303), { method: 'PUT', token: judge, body: { score: '150' } });
    assert(put.status === 200 && put.data.voie.score_status === 'entered', `PUT ${put.status} ${JSON.stringify(put.data)}`);
    await waitRow(jp, '8011', { score: '150', provisional: true });
    const tj = Date.now() - t0;
    assert(await jp.$eval('#view [data-field=place]', (e) => e.textContent) !== placeBefore
           && await jp.$('#view [data-field=place-status]'), 'the judge\'s phone: the new place is not marked provisional');
    await phoneShot(jp, 'phone-provisional');
    await sleep(Math.max(0, 2500 - (Date.now() - t0)));
    const waiting = await wodRow(p, '8011');
    assert(JSON.stringify(waiting) === JSON.stringify(before), `2.5 s after the PUT the spectator sees ${JSON.stringify(waiting)}`);
    assert(await p.$eval('#view [data-field=place]', (e) => e.textContent) === placeBefore, 'the place moved');
    const asked = apiRequests(net8.since(t0).requests);
    assert(asked.length === 0, `the spectator's phone asked for ${asked.map((r) => r.url)}`);
    const pubLane = await (await fetch(new URL('competition/8001/zone/8021/heat/8201/voie/8303', PUB))).json();
    assert(pubLane.voie.score === null, `the public API shows ${JSON.stringify(pubLane.voie)}`);

    // its validation: on the spectator's phone within 2 s, the judge's no longer provisional
    const t1 = Date.now();
    const val = await apiCall(`${C8(8021, 8201, 8303)}/validate`, { method: 'POST', token: organizer });
    assert(val.status === 200 && val.data.voie.score_status === 'validated', `validate ${val.status} ${JSON.stringify(val.data)}`);
    await waitRow(p, '8011', { score: '150' });
    const ms = Date.now() - t1;
    await waitRow(jp, '8011', { score: '150', provisional: false });
    assert(!(await jp.$('#view [data-field=place-status]')), 'the judge\'s phone: the place still provisional');
    assert(!(await p.$('#view .prov')), 'the spectator\'s phone shows "provisional"');
    assert(await p.evaluate(() => window.__same === true), 'the page was reloaded');
    const after = await wodRow(p, '8011');
    const board = (await (await fetch(new URL('competition/8001/wod/8011/leaderboard?division=RX', PUB))).json()).leaderboard;
    const mine = board.divisions[0].entries.find((e) => e.spot_id === '8103');
    assert(mine.score === '150' && after.place === String(mine.rank) && !after.provisional,
           `the phone shows ${JSON.stringify(after)}, the API ${JSON.stringify(mine)}`);
    const want = await expectedCard(8001, '8103', null, PUB);
    const shownNow = await shownCard(p);
    assert(shownNow.place === want.place && shownNow.points === want.points && shownNow.place !== placeBefore,
           `card ${JSON.stringify(shownNow)}, API ${JSON.stringify(want)} (before: ${placeBefore})`);
    assert(net8.longPolls().length === 0, 'long polls');
    console.log(`  # the entry: on the judge's phone (provisional) in ${tj} ms, not on the spectator's in 2.5 s; ` +
                `the validation on the spectator's phone ${ms} ms after its answer`);
    await phoneShot(p, 'phone-validated');
});

await check('validated competition: the phone shows "reconnecting" while the server restarts, then follows a validation made meanwhile', async () => {
    const { p } = spectator;
    await p.evaluate(() => {
        window.__states = [];
        new MutationObserver(() => window.__states.push(document.querySelector('#live-state').dataset.state))
            .observe(document.querySelector('#live-state'), { attributes: true });
    });
    execFileSync('apache2', ['-f', process.env.CONF, '-k', 'restart']);
    await p.waitForFunction(() => window.__states.includes('reconnecting'), { timeout: 8000 });
    const text = await p.$eval('#live-state', (e) => e.textContent);
    assert(text === 'reconnecting…', `shown "${text}"`);
    await serverBack();
    const put = await apiCall(C8(8021, 8201, 8303), { method: 'PUT', token: judge, body: { score: '95' } });
    const val = await apiCall(`${C8(8021, 8201, 8303)}/validate`, { method: 'POST', token: organizer });
    assert(put.status === 200 && val.status === 200, `PUT ${put.status}, validate ${val.status}`);
    await p.waitForFunction(() => document.querySelector('#live-state').dataset.state === 'live', { timeout: 15000 });
    await waitRow(p, '8011', { score: '95' }, 5000);
    const states = await p.evaluate(() => window.__states.join(' > '));
    assert(!states.includes('polling'), `states ${states}`);
    console.log(`  # states: ${states}`);
});

await check('an idle phone: for 20 s nothing but the stream\'s keep-alives (no request, no event)', async () => {
    const { p } = spectator;
    await p.waitForNetworkIdle({ idleTime: 1000, concurrency: 1, timeout: 10000 });
    const stream = net8.streams().filter((r) => r.status === 200).pop();
    assert(stream && stream.streamed, 'no readable stream open');
    const t0 = Date.now();
    await sleep(20000);
    const { requests, chunks } = net8.since(t0);
    assert(requests.length === 0, `requests while idle: ${requests.map((r) => r.url)}`);
    const other = chunks.filter((c) => c.id !== stream.id);
    assert(other.length === 0, `data of other requests while idle: ${other.length}`);
    const text = chunks.map((c) => c.text ?? '').join('');
    const bytes = chunks.reduce((n, c) => n + c.bytes, 0);
    const comments = text.match(/^:.*$/gm) || [];
    assert(comments.length >= 3, `${comments.length} keep-alives in 20 s (RankingEventKeepAlive 4)`);
    assert(text.split('\n').every((l) => l === '' || l.startsWith(':')), `the stream sent more than comments: ${JSON.stringify(text)}`);
    // (Chromium may count bytes of the stream's answer late, in the first chunk it reports)
    assert(text.length <= comments.length * 16 && bytes <= 1024,
           `${text.length} bytes of text, ${bytes} on the wire for ${comments.length} keep-alives: ${JSON.stringify(chunks)}`);
    console.log(`  # 20 s idle: 0 requests, ${comments.length} keep-alives ("${comments[0]}"), ` +
                `${text.length} bytes of text, ${bytes} counted by Chromium`);
});

await check('fallback: a server that answers the anonymous stream 401 or 406 is long-polled, and a validation still shows', async () => {
    const { p } = spectator;
    const steps = [[401, C8(8021, 8202, 8306), '90 kg', '8012'], [406, C8(8021, 8201, 8303), '170', '8011']];
    for (const [status, lane, score, wod] of steps) {
        const onReq = (r) => (new URL(r.url()).pathname.endsWith('/events')
            ? r.respond({ status, contentType: 'application/json',
                          body: JSON.stringify({ status: 'error', message: status === 401 ? 'Unauthorized' : 'Not acceptable' }) })
            : r.continue());
        await p.setRequestInterception(true);
        p.on('request', onReq);
        try {
            await p.reload();
            await p.waitForSelector('#view .me-card[data-spot-id="8103"] .me-wods', { timeout: 8000 });
            await p.waitForFunction(() => document.querySelector('#live-state').dataset.state === 'polling', { timeout: 8000 });
            const text = await p.$eval('#live-state', (e) => e.textContent);
            assert(text === 'live (polling)', `${status}: state text "${text}"`);
            await sleep(500);
            const put = await apiCall(lane, { method: 'PUT', token: judge, body: { score } });
            const val = await apiCall(`${lane}/validate`, { method: 'POST', token: organizer });
            assert(put.status === 200 && val.status === 200, `${status}: PUT ${put.status}, validate ${val.status}`);
            await waitRow(p, wod, { score }, 4000);
        } finally {
            p.off('request', onReq);
            await p.setRequestInterception(false);
        }
    }
    assert(net8.longPolls().length > 0, 'no long poll seen');
});

await check('phones: no request to another origin, no script error', async () => {
    await judgePhone?.ctx.close();
    for (const { log } of [reader, spectator, ...(judgePhone ? [judgePhone] : [])]) {
        const foreign = log.requests.filter((u) => new URL(u).origin !== ORIGIN);
        assert(foreign.length === 0, `requests to other origins: ${foreign.join(', ')}`);
        assert(log.errors.length === 0, `script errors: ${log.errors.join('; ')}`);
    }
});
await reader.ctx.close();
await spectator.ctx.close();

await browser.close();
summary();
