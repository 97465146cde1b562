#!/usr/bin/env node
// node t/openapi/selftest.mjs [--doc FILE]: proves that check-responses.mjs accepts
// answers that follow openapi.yaml and refuses answers that drift from it (a checker
// that accepts everything would make t/api/95_openapi.t worthless).  The canned
// answers are built from the demo data.  Exits 0 when every case behaves, else 1.
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const docArgs = process.argv[2] === '--doc' && process.argv[3] ? ['--doc', process.argv[3]] : [];

const JSONCT = { 'content-type': 'application/json' };
const b64 = (v) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64');
const comp1 = {
    id: '1', name: 'Paris Throwdown 2026', location: 'Halle Georges Carpentier, Paris',
    start_date: '2026-11-21', end_date: '2026-11-22', timezone: 'Europe/Paris',
    status: 'in_progress',
};
const heat207 = {
    id: '207', competition_id: '1', zone_id: null, wod_id: '11', number: 3,
    start_time: '2026-11-21T11:30:00Z', status: 'finished',
};
const lane1005 = { id: '1005', heat_id: '202', number: 4, spot_id: null, spot_name: null, score: null };
const lane1001 = { id: '1001', heat_id: '202', number: 3, spot_id: '102', spot_name: 'Barbell Brothers', score: '185kg' };
const VOIE = '/competition/1/zone/21/heat/202/voie/1005';
const unauthorized = { status: 'error', message: 'Unauthorized' };
const www = { 'www-authenticate': 'Bearer realm="ranking"' };

// a read answer carries a strong ETag (declared required on every GET 200 / HEAD 200)
const ETAG = '"3f2a255cb8e37566-104"';
const ok = (status, body, headers = { ...JSONCT, etag: ETAG }) => ({ status, headers, body_b64: b64(body) });

// [name, expected ok, exchange, expected request_valid (optional)]
const cases = [
    ['competition 1', true, { method: 'GET', path: '/competition/1', ...ok(200, { status: 'success', competition: comp1 }) }],
    ['trailing slash on a detail', true, { method: 'GET', path: '/competition/1/', ...ok(200, { status: 'success', competition: comp1 }) }],
    ['list without its trailing slash', true, { method: 'GET', path: '/competition', ...ok(200, { status: 'success', competitions: [comp1] }) }],
    ['heat without zone (null zone_id)', true, { method: 'GET', path: '/competition/1/heat/207', ...ok(200, { status: 'success', heat: heat207 }) }],
    ['empty lane', true, { method: 'GET', path: VOIE, ...ok(200, { status: 'success', voie: lane1005 }) }],
    ['401 with WWW-Authenticate', true, { method: 'GET', path: '/competition/1/heat/', ...ok(401, unauthorized, { ...JSONCT, ...www }) }],
    ['401 invalid_token', true, { method: 'GET', path: '/competition/', ...ok(401, unauthorized, { ...JSONCT, 'www-authenticate': 'Bearer realm="ranking", error="invalid_token"' }) }],
    ['405 on an undeclared method', true, { method: 'POST', path: '/competition/', ...ok(405, { status: 'error', message: 'Method not allowed' }, { ...JSONCT, allow: 'GET, HEAD' }) }],
    ['OPTIONS 204', true, { method: 'OPTIONS', path: VOIE, status: 204, headers: { allow: 'GET, HEAD, PUT, DELETE' }, body_b64: '' }],
    ['HEAD 200 without body', true, { method: 'HEAD', path: '/competition/1', status: 200, headers: { ...JSONCT, etag: ETAG }, body_b64: '' }],
    ['304 with the ETag, no body', true, { method: 'GET', path: '/competition/1/spot/', status: 304, headers: { etag: ETAG }, body_b64: '' }],
    ['HEAD 304', true, { method: 'HEAD', path: VOIE, status: 304, headers: { etag: ETAG }, body_b64: '' }],
    ['unmatched path against NotFound', true, { method: 'GET', path: '/competition/abc', component: 'NotFound', ...ok(404, { status: 'error', message: 'Not found' }) }],
    ['PUT 200, valid request', true, { method: 'PUT', path: VOIE, request_content_type: 'application/json', request_body_b64: b64({ score: '1' }), ...ok(200, { status: 'success', voie: lane1001 }) }, true],
    ['PUT 400, request out of range', true, { method: 'PUT', path: VOIE, request_content_type: 'application/json', request_body_b64: b64({ number: 1000 }), ...ok(400, { status: 'error', message: 'Invalid body: number out of range' }) }, false],
    ['PUT 400, request with unknown key', true, { method: 'PUT', path: VOIE, request_content_type: 'application/json', request_body_b64: b64({ bogus: 1 }), ...ok(400, { status: 'error', message: 'Invalid body: unknown key' }) }, false],
    ['PUT 400, empty object', true, { method: 'PUT', path: VOIE, request_content_type: 'application/json', request_body_b64: b64({}), ...ok(400, { status: 'error', message: 'Invalid body: no field to change' }) }, false],
    ['PUT, spot_id with a leading zero', true, { method: 'PUT', path: VOIE, request_content_type: 'application/json', request_body_b64: b64({ spot_id: '0154' }), ...ok(400, { status: 'error', message: 'Invalid body: spot_id is not a valid id' }) }, false],
    ['PUT, score of 65 characters', true, { method: 'PUT', path: VOIE, request_content_type: 'application/json', request_body_b64: b64({ score: 'é'.repeat(65) }), ...ok(400, { status: 'error', message: 'Invalid body: score longer than 64 characters' }) }, false],

    ['id as a number', false, { method: 'GET', path: '/competition/1', ...ok(200, { status: 'success', competition: { ...comp1, id: 1 } }) }],
    ['id with a leading zero', false, { method: 'GET', path: '/competition/1', ...ok(200, { status: 'success', competition: { ...comp1, id: '01' } }) }],
    ['an extra field', false, { method: 'GET', path: '/competition/1', ...ok(200, { status: 'success', competition: { ...comp1, extra: 1 } }) }],
    ['a missing field', false, { method: 'GET', path: '/competition/1', ...ok(200, { status: 'success', competition: { ...comp1, timezone: undefined } }) }],
    ['an extra top-level key', false, { method: 'GET', path: '/competition/1', ...ok(200, { status: 'success', competition: comp1, total: 1 }) }],
    ['status "ok"', false, { method: 'GET', path: '/competition/1', ...ok(200, { status: 'ok', competition: comp1 }) }],
    ['the list key of another resource', false, { method: 'GET', path: '/competition/', ...ok(200, { status: 'success', competition: [comp1] }) }],
    ['an impossible date', false, { method: 'GET', path: '/competition/1', ...ok(200, { status: 'success', competition: { ...comp1, start_date: '2026-13-45' } }) }],
    ['a local start_time', false, { method: 'GET', path: '/competition/1/heat/207', ...ok(200, { status: 'success', heat: { ...heat207, start_time: '2026-11-21 11:30:00' } }) }],
    ['a number as a string', false, { method: 'GET', path: '/competition/1/heat/207', ...ok(200, { status: 'success', heat: { ...heat207, number: '3' } }) }],
    ['an unknown status value', false, { method: 'GET', path: '/competition/1/heat/207', ...ok(200, { status: 'success', heat: { ...heat207, status: 'done' } }) }],
    ['spot_name without spot_id', false, { method: 'GET', path: VOIE, ...ok(200, { status: 'success', voie: { ...lane1005, spot_name: 'x' } }) }],
    ['a voie answered under "line"', false, { method: 'GET', path: VOIE, ...ok(200, { status: 'success', line: lane1005 }) }],
    ['401 without WWW-Authenticate', false, { method: 'GET', path: '/competition/1/heat/', ...ok(401, unauthorized) }],
    ['401 with another message', false, { method: 'GET', path: '/competition/1/heat/', ...ok(401, { status: 'error', message: 'Invalid credentials' }, { ...JSONCT, ...www }) }],
    ['405 with a wrong Allow', false, { method: 'POST', path: '/competition/', ...ok(405, { status: 'error', message: 'Method not allowed' }, { ...JSONCT, allow: 'GET' }) }],
    ['405 without Allow', false, { method: 'POST', path: VOIE, ...ok(405, { status: 'error', message: 'Method not allowed' }) }],
    ['304 with a body', false, { method: 'GET', path: '/competition/1', status: 304, headers: { etag: ETAG }, body_b64: b64('{}') }],
    ['304 without ETag', false, { method: 'GET', path: '/competition/1', status: 304, headers: {}, body_b64: '' }],
    ['200 without ETag', false, { method: 'GET', path: '/competition/1', status: 200, headers: JSONCT, body_b64: b64({ status: 'success', competition: comp1 }) }],
    ['a weak ETag', false, { method: 'GET', path: '/competition/1', status: 200, headers: { ...JSONCT, etag: 'W/' + ETAG }, body_b64: b64({ status: 'success', competition: comp1 }) }],
    ['204 with a body', false, { method: 'OPTIONS', path: VOIE, status: 204, headers: { allow: 'GET, HEAD, PUT, DELETE' }, body_b64: b64('{}') }],
    ['HEAD with a body', false, { method: 'HEAD', path: '/competition/1', ...ok(200, { status: 'success', competition: comp1 }) }],
    ['an HTML error page', false, { method: 'GET', path: '/competition/1', status: 404, headers: { 'content-type': 'text/html' }, body_b64: b64('<html></html>') }],
    ['a body that is not JSON', false, { method: 'GET', path: '/competition/1', ...ok(200, '{"status":"success",') }],
    ['an undeclared status', false, { method: 'GET', path: '/competition/1', ...ok(418, { status: 'error', message: 'teapot' }) }],
    ['404 on a route that cannot answer it', false, { method: 'GET', path: '/competition/', ...ok(404, { status: 'error', message: 'Not found' }) }],
    ['an error with an extra key', false, { method: 'GET', path: '/competition/9', ...ok(404, { status: 'error', message: 'Not found', detail: 'SELECT ...' }) }],
    ['503 without Retry-After', false, { method: 'GET', path: '/competition/9', ...ok(503, { status: 'error', message: 'Service unavailable' }) }],
    ['a path of no route', false, { method: 'GET', path: '/competition/1/nothing', ...ok(404, { status: 'error', message: 'Not found' }) }],
    ['an id the document refuses', false, { method: 'GET', path: '/competition/01', ...ok(404, { status: 'error', message: 'Not found' }) }],
];

const input = { exchanges: cases.map(([, , ex], i) => ({ id: i, ...ex })) };
const run = spawnSync(process.execPath, [resolve(here, 'check-responses.mjs'), ...docArgs, 'check'],
    { input: JSON.stringify(input), encoding: 'utf8' });
if (run.status !== 0) {
    console.error(`check-responses.mjs exited with ${run.status}: ${run.stderr}`);
    process.exit(1);
}
const results = JSON.parse(run.stdout).results;
let bad = 0, good = 0, refused = 0;
cases.forEach(([name, want, , wantReq], i) => {
    const r = results[i];
    const problems = [];
    if (r.ok !== want) problems.push(want ? `refused: ${r.errors.join('; ')}` : 'accepted');
    if (wantReq !== undefined && r.request_valid !== wantReq) {
        problems.push(`request_valid ${r.request_valid}, expected ${wantReq} ${(r.request_errors ?? []).join('; ')}`);
    }
    if (problems.length) {
        bad++;
        console.log(`not ok ${i + 1} - ${name}: ${problems.join('; ')}`);
    } else {
        console.log(`ok ${i + 1} - ${name}${want ? '' : ` (refused: ${r.errors[0]})`}`);
        if (want) good++;
        else refused++;
    }
});
console.log(bad ? `${bad} of ${cases.length} cases misjudged`
    : `${good} good answers accepted, ${refused} bad answers refused`);
process.exit(bad ? 1 : 0);
