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
    status: 'in_progress', ranking: 'places', publication: 'immediate', advance: null,
};
const heat207 = {
    id: '207', competition_id: '1', zone_id: null, wod_id: '11', number: 3,
    start_time: '2026-11-21T11:30:00Z', status: 'finished',
};
const lane1005 = { id: '1005', heat_id: '202', number: 4, spot_id: null, spot_name: null, score: null, tiebreak: null, score_status: null };
const lane1001 = { id: '1001', heat_id: '202', number: 3, spot_id: '102', spot_name: 'Barbell Brothers', score: '185kg', tiebreak: null, score_status: 'entered' };
// leaderboards (competition 1, WOD 11; abridged to one division each)
const LB_WOD = '/competition/1/wod/11/leaderboard';
const LB_ALL = '/competition/1/leaderboard';
const entry104 = { rank: 1, points: 1, spot_id: '104', spot_name: 'Iron Lungs', bib: 7, score: '05:48', tiebreak: null, heat_id: '201', lane_id: '1012' };
const entry104no = { rank: null, points: 3, spot_id: '104', spot_name: 'Iron Lungs', bib: 7, score: null, tiebreak: null, heat_id: null, lane_id: null };
const wodBoard = (entries, extra = {}) => ({ status: 'success', leaderboard: { competition_id: '1', wod_id: '11', scoring: 'time', ranking: 'places', divisions: [{ division: 'RX', entries }], ...extra } });
const overall104 = { rank: 1, points: 6, spot_id: '104', spot_name: 'Iron Lungs', bib: 7, advancing: null, results: [
    { wod_id: '13', rank: 1, points: 1, score: '192kg' }, { wod_id: '11', rank: 1, points: 1, score: '05:48' },
    { wod_id: '12', rank: null, points: 3, score: null }, { wod_id: '14', rank: null, points: 1, score: null }] };
const allBoard = (entries, division = 'RX') => ({ status: 'success', leaderboard: { competition_id: '1', ranking: 'places', wods: ['13', '11', '12', '14'], divisions: [{ division, entries }] } });
const invalidQuery = { status: 'error', message: 'Invalid query' };
const VOIE = '/competition/1/zone/21/heat/202/voie/1005';
const unauthorized = { status: 'error', message: 'Unauthorized' };
const www = { 'www-authenticate': 'Bearer realm="ranking"' };

// lane history and live updates (competition 2, lane 2015 of heat 254, zone 27)
const HIST = '/competition/2/zone/27/heat/254/voie/2015/history';
const EVENTS = '/competition/2/events';
const lane2015 = { id: '2015', heat_id: '254', number: 2, spot_id: '156', spot_name: 'Masters of Disaster', score: '88kg', tiebreak: null, score_status: 'entered' };
const lane2015b = { ...lane2015, score: '92.5 kg', tiebreak: '1:05' };
const rec81 = { id: '81', at: '2026-11-21T09:31:02Z', user: 'judge', action: 'update', before: lane2015, after: lane2015b };
const rec82 = { id: '82', at: '2026-11-21T09:40:15Z', user: 'judge', action: 'delete', before: lane2015b, after: null };
const SSE = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' };
const evUpdate = (data) => `id: 81\nevent: lane\ndata: ${JSON.stringify(data)}\n\n`;
const upd = { action: 'update', competition_id: '2', zone_id: '27', heat_id: '254', voie: lane2015b };
const del = { action: 'delete', competition_id: '2', zone_id: '27', heat_id: '254', lane_id: '2015' };
const OPENING = 'retry: 2000\n: mod_ranking events\n\n';
const stream = (text, headers = SSE) => ({ method: 'GET', path: EVENTS, status: 200, headers, body_b64: b64(text) });

// a read answer carries a strong ETag (declared required on every GET 200 / HEAD 200)
const ETAG = '"3f2a255cb8e37566-104"';
const ok = (status, body, headers = { ...JSONCT, etag: ETAG }) => ({ status, headers, body_b64: b64(body) });
// one lane (voie, line, PUT answer) has a tag of its own
const LANE_ETAG = '"3f2a255cb8e37566-l5e0c2b6f1d4a9e7c3b8a6d2f0e1c9b7a"';
const LANEH = { ...JSONCT, etag: LANE_ETAG, 'cache-control': 'private, no-cache' };

// [name, expected ok, exchange, expected request_valid (optional)]
const cases = [
    ['competition 1', true, { method: 'GET', path: '/competition/1', ...ok(200, { status: 'success', competition: comp1 }) }],
    ['trailing slash on a detail', true, { method: 'GET', path: '/competition/1/', ...ok(200, { status: 'success', competition: comp1 }) }],
    ['list without its trailing slash', true, { method: 'GET', path: '/competition', ...ok(200, { status: 'success', competitions: [comp1] }) }],
    ['heat without zone (null zone_id)', true, { method: 'GET', path: '/competition/1/heat/207', ...ok(200, { status: 'success', heat: heat207 }) }],
    ['empty lane', true, { method: 'GET', path: VOIE, ...ok(200, { status: 'success', voie: lane1005 }, LANEH) }],
    ['a lane with the revision ETag', false, { method: 'GET', path: VOIE, ...ok(200, { status: 'success', voie: lane1005 }) }],
    ['a lane with another Cache-Control', false, { method: 'GET', path: VOIE, ...ok(200, { status: 'success', voie: lane1005 }, { ...LANEH, 'cache-control': 'public' }) }],
    ['412 Precondition failed', true, { method: 'PUT', path: VOIE, request_content_type: 'application/json', request_body_b64: b64({ score: '1' }), ...ok(412, { status: 'error', message: 'Precondition failed' }, JSONCT) }, true],
    ['412 with another message', false, { method: 'DELETE', path: VOIE, ...ok(412, { status: 'error', message: 'Conflict' }, JSONCT) }],
    ['HEAD 412 without body', true, { method: 'HEAD', path: '/competition/1', status: 412, headers: JSONCT, body_b64: '' }],
    ['401 with WWW-Authenticate', true, { method: 'GET', path: '/competition/1/heat/', ...ok(401, unauthorized, { ...JSONCT, ...www }) }],
    ['401 invalid_token', true, { method: 'GET', path: '/competition/', ...ok(401, unauthorized, { ...JSONCT, 'www-authenticate': 'Bearer realm="ranking", error="invalid_token"' }) }],
    ['405 on an undeclared method', true, { method: 'PUT', path: '/competition/', ...ok(405, { status: 'error', message: 'Method not allowed' }, { ...JSONCT, allow: 'GET, HEAD, POST' }) }],
    ['OPTIONS 204', true, { method: 'OPTIONS', path: VOIE, status: 204, headers: { allow: 'GET, HEAD, PUT, DELETE' }, body_b64: '' }],
    ['HEAD 200 without body', true, { method: 'HEAD', path: '/competition/1', status: 200, headers: { ...JSONCT, etag: ETAG }, body_b64: '' }],
    ['304 with the ETag, no body', true, { method: 'GET', path: '/competition/1/spot/', status: 304, headers: { etag: ETAG }, body_b64: '' }],
    ['HEAD 304', true, { method: 'HEAD', path: VOIE, status: 304, headers: { etag: ETAG }, body_b64: '' }],
    ['unmatched path against NotFound', true, { method: 'GET', path: '/competition/abc', component: 'NotFound', ...ok(404, { status: 'error', message: 'Not found' }) }],
    ['PUT 200, valid request', true, { method: 'PUT', path: VOIE, request_content_type: 'application/json', request_body_b64: b64({ score: '1' }), ...ok(200, { status: 'success', voie: lane1001 }, LANEH) }, true],
    ['PUT 400, request out of range', true, { method: 'PUT', path: VOIE, request_content_type: 'application/json', request_body_b64: b64({ number: 1000 }), ...ok(400, { status: 'error', message: 'Invalid body: number out of range' }) }, false],
    ['PUT 400, request with unknown key', true, { method: 'PUT', path: VOIE, request_content_type: 'application/json', request_body_b64: b64({ bogus: 1 }), ...ok(400, { status: 'error', message: 'Invalid body: unknown key' }) }, false],
    ['PUT 400, empty object', true, { method: 'PUT', path: VOIE, request_content_type: 'application/json', request_body_b64: b64({}), ...ok(400, { status: 'error', message: 'Invalid body: no field to change' }) }, false],
    ['PUT, spot_id with a leading zero', true, { method: 'PUT', path: VOIE, request_content_type: 'application/json', request_body_b64: b64({ spot_id: '0154' }), ...ok(400, { status: 'error', message: 'Invalid body: spot_id is not a valid id' }) }, false],
    ['WOD leaderboard', true, { method: 'GET', path: LB_WOD, ...ok(200, wodBoard([entry104, entry104no])) }],
    ['WOD leaderboard, trailing slash, chart100', true, { method: 'GET', path: LB_WOD + '/', ...ok(200, wodBoard([{ ...entry104, points: 100 }, { ...entry104no, points: 0 }], { ranking: 'chart100' })) }],
    ['overall leaderboard, group without division', true, { method: 'GET', path: LB_ALL, ...ok(200, allBoard([overall104], null)) }],
    ['leaderboard 400 Invalid query', true, { method: 'GET', path: LB_ALL, ...ok(400, invalidQuery, JSONCT) }],
    ['leaderboard HEAD 400 without body', true, { method: 'HEAD', path: LB_WOD, status: 400, headers: JSONCT, body_b64: '' }],
    ['leaderboard 404 (unknown division)', true, { method: 'GET', path: LB_WOD, ...ok(404, { status: 'error', message: 'Not found' }, JSONCT) }],
    ['leaderboard 304', true, { method: 'GET', path: LB_ALL, status: 304, headers: { etag: ETAG }, body_b64: '' }],
    ['a division-filtered leaderboard: the ETag has a tag of the division', true, { method: 'GET', path: LB_WOD, ...ok(200, wodBoard([entry104, entry104no]), { ...JSONCT, etag: '"3f2a255cb8e37566-104-d1a2b3c4d"' }) }],
    ['leaderboard OPTIONS 204', true, { method: 'OPTIONS', path: LB_ALL, status: 204, headers: { allow: 'GET, HEAD' }, body_b64: '' }],
    ['competition with chart100', true, { method: 'GET', path: '/competition/1', ...ok(200, { status: 'success', competition: { ...comp1, ranking: 'chart100' } }) }],
    ['PUT with a score and a tiebreak', true, { method: 'PUT', path: VOIE, request_content_type: 'application/json', request_body_b64: b64({ score: '07:45', tiebreak: '3:12.5' }), ...ok(200, { status: 'success', voie: { ...lane1001, score: '07:45', tiebreak: '3:12.5' } }, LANEH) }, true],
    ['PUT 400, a score that does not fit the WOD', true, { method: 'PUT', path: VOIE, request_content_type: 'application/json', request_body_b64: b64({ score: '7:61' }), ...ok(400, { status: 'error', message: 'Invalid body: score must be a time like 7:45 (within the time cap), CAP+N or WD' }) }, true],
    ['PUT 400, a tiebreak that is not a time', true, { method: 'PUT', path: VOIE, request_content_type: 'application/json', request_body_b64: b64({ tiebreak: 'CAP+3' }), ...ok(400, { status: 'error', message: 'Invalid body: tiebreak must be a time like 1:02.5' }) }, false],
    ['PUT, score of 65 characters', true, { method: 'PUT', path: VOIE, request_content_type: 'application/json', request_body_b64: b64({ score: 'é'.repeat(65) }), ...ok(400, { status: 'error', message: 'Invalid body: score longer than 64 characters' }) }, false],
    ['lane history', true, { method: 'GET', path: HIST, ...ok(200, { status: 'success', history: [rec81, rec82] }) }],
    ['empty lane history, trailing slash', true, { method: 'GET', path: HIST + '/', ...ok(200, { status: 'success', history: [] }) }],
    ['history 403 for a reader', true, { method: 'GET', path: HIST, ...ok(403, { status: 'error', message: 'Forbidden' }, JSONCT) }],
    ['history HEAD 403 without body', true, { method: 'HEAD', path: HIST, status: 403, headers: JSONCT, body_b64: '' }],
    ['history 405', true, { method: 'PUT', path: HIST, ...ok(405, { status: 'error', message: 'Method not allowed' }, { ...JSONCT, allow: 'GET, HEAD' }) }],
    ['long poll: 200 with Preference-Applied', true, { method: 'GET', path: HIST, ...ok(200, { status: 'success', history: [rec81] }, { ...JSONCT, etag: ETAG, 'preference-applied': 'wait=60' }) }],
    ['long poll: 304 with Preference-Applied', true, { method: 'GET', path: '/competition/1', status: 304, headers: { etag: ETAG, 'preference-applied': 'wait=1' }, body_b64: '' }],
    ['event stream: opening only', true, stream(OPENING)],
    ['event stream: update, delete, keep-alive', true, stream(OPENING + evUpdate(upd) + evUpdate(del) + ': keep-alive\n\n')],
    ['event stream: variant B (line)', true, stream(OPENING + evUpdate({ ...upd, voie: undefined, line: lane2015b }))],
    ['event stream: a change of a heat, a delete of a spot (part 3)', true, stream(OPENING
        + `id: 82\nevent: change\ndata: ${JSON.stringify({ action: 'update', resource: 'heat', id: '254', competition_id: '2', heat: { id: '254', competition_id: '2', zone_id: '27', wod_id: '17', number: 2, start_time: null, status: 'running' } })}\n\n`
        + `id: 83\nevent: change\ndata: ${JSON.stringify({ action: 'delete', resource: 'spot', id: '160', competition_id: '2' })}\n\n`)],
    ['event stream cut within an event (not dispatched)', true, stream(OPENING + 'id: 81\nevent: lane\n')],
    ['event stream HEAD without body', true, { method: 'HEAD', path: EVENTS, status: 200, headers: SSE, body_b64: '' }],
    ['event stream 406', true, { method: 'GET', path: EVENTS, ...ok(406, { status: 'error', message: 'Not acceptable' }, JSONCT) }],
    ['event stream HEAD 406 without body', true, { method: 'HEAD', path: EVENTS, status: 406, headers: JSONCT, body_b64: '' }],
    ['event stream OPTIONS 204', true, { method: 'OPTIONS', path: EVENTS, status: 204, headers: { allow: 'GET, HEAD' }, body_b64: '' }],

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
    ['a lane without tiebreak', false, { method: 'GET', path: VOIE, ...ok(200, { status: 'success', voie: { ...lane1005, tiebreak: undefined } }, LANEH) }],
    ['a competition without ranking', false, { method: 'GET', path: '/competition/1', ...ok(200, { status: 'success', competition: { ...comp1, ranking: undefined } }) }],
    ['a competition without publication', false, { method: 'GET', path: '/competition/1', ...ok(200, { status: 'success', competition: { ...comp1, publication: undefined } }) }],
    ['an unknown ranking policy', false, { method: 'GET', path: '/competition/1', ...ok(200, { status: 'success', competition: { ...comp1, ranking: 'chart' } }) }],
    ['a 400 message the document does not list', false, { method: 'PUT', path: VOIE, request_content_type: 'application/json', request_body_b64: b64({ score: 'x' }), ...ok(400, { status: 'error', message: 'Invalid body: bad score' }) }],
    ['a leaderboard entry ranked 0', false, { method: 'GET', path: LB_WOD, ...ok(200, wodBoard([{ ...entry104, rank: 0 }])) }],
    ['a ranked entry without a lane', false, { method: 'GET', path: LB_WOD, ...ok(200, wodBoard([{ ...entry104, heat_id: null, lane_id: null }])) }],
    ['an entry without lane but with a score', false, { method: 'GET', path: LB_WOD, ...ok(200, wodBoard([{ ...entry104no, score: '05:48' }])) }],
    ['an entry with a lane but no heat', false, { method: 'GET', path: LB_WOD, ...ok(200, wodBoard([{ ...entry104, heat_id: null }])) }],
    ['points as a string', false, { method: 'GET', path: LB_WOD, ...ok(200, wodBoard([{ ...entry104, points: '1' }])) }],
    ['a WOD leaderboard without wod_id', false, { method: 'GET', path: LB_WOD, ...ok(200, wodBoard([entry104], { wod_id: undefined })) }],
    ['an overall entry without rank', false, { method: 'GET', path: LB_ALL, ...ok(200, allBoard([{ ...overall104, rank: null }])) }],
    ['an overall result with an extra key', false, { method: 'GET', path: LB_ALL, ...ok(200, allBoard([{ ...overall104, results: [{ wod_id: '13', rank: 1, points: 1, score: '192kg', lane_id: '1002' }] }])) }],
    ['a leaderboard 400 with another message', false, { method: 'GET', path: LB_ALL, ...ok(400, { status: 'error', message: 'Bad request' }, JSONCT) }],
    ['a leaderboard 405 with the lane\'s Allow', false, { method: 'PUT', path: LB_ALL, ...ok(405, { status: 'error', message: 'Method not allowed' }, { ...JSONCT, allow: 'GET, HEAD, PUT, DELETE' }) }],
    ['an ETag with a malformed division tag', false, { method: 'GET', path: LB_WOD, ...ok(200, wodBoard([entry104]), { ...JSONCT, etag: '"3f2a255cb8e37566-104-dRX"' }) }],
    ['a weak ETag', false, { method: 'GET', path: LB_ALL, status: 304, headers: { etag: 'W/' + ETAG }, body_b64: '' }],
    ['a history record of a delete with an after', false, { method: 'GET', path: HIST, ...ok(200, { status: 'success', history: [{ ...rec82, after: lane2015b }] }) }],
    ['a history record of an update without after', false, { method: 'GET', path: HIST, ...ok(200, { status: 'success', history: [{ ...rec81, after: null }] }) }],
    ['a history record with a local time', false, { method: 'GET', path: HIST, ...ok(200, { status: 'success', history: [{ ...rec81, at: '2026-11-21 09:31:02' }] }) }],
    ['a history record without user', false, { method: 'GET', path: HIST, ...ok(200, { status: 'success', history: [{ ...rec81, user: undefined }] }) }],
    ['a history record whose lane lacks a field', false, { method: 'GET', path: HIST, ...ok(200, { status: 'success', history: [{ ...rec81, before: { ...lane2015, tiebreak: undefined } }] }) }],
    ['history 403 with another message', false, { method: 'GET', path: HIST, ...ok(403, { status: 'error', message: 'Not found' }, JSONCT) }],
    ['Preference-Applied out of range', false, { method: 'GET', path: '/competition/1', status: 304, headers: { etag: ETAG, 'preference-applied': 'wait=61' }, body_b64: '' }],
    ['an event stream as JSON', false, stream(JSON.stringify(upd), { ...SSE, ...JSONCT })],
    ['an event stream without Cache-Control', false, stream(OPENING, { 'content-type': 'text/event-stream', 'x-accel-buffering': 'no' })],
    ['an event stream with a line of another field', false, stream(OPENING + 'message: hello\n\n')],
    ['an event of another type', false, stream(OPENING + evUpdate(upd).replace('event: lane', 'event: score'))],
    ['a lane change sent as event: change', false, stream(OPENING + evUpdate(upd).replace('event: lane', 'event: change'))],
    ['a change of an unknown resource', false, stream(OPENING + `id: 82\nevent: change\ndata: ${JSON.stringify({ action: 'delete', resource: 'team', id: '1', competition_id: '2' })}\n\n`)],
    ['an event whose data is not JSON', false, stream(OPENING + 'id: 81\nevent: lane\ndata: {"action":\n\n')],
    ['an event with the lane and lane_id', false, stream(OPENING + evUpdate({ ...upd, lane_id: '2015' }))],
    ['a delete event without lane_id', false, stream(OPENING + evUpdate({ ...del, lane_id: undefined, voie: lane2015b }))],
    ['an event with a numeric heat_id', false, stream(OPENING + evUpdate({ ...upd, heat_id: 254 }))],
    ['an event stream HEAD with a body', false, { method: 'HEAD', path: EVENTS, status: 200, headers: SSE, body_b64: b64(OPENING) }],
    ['an event stream 304 (no ETag, never 304)', false, { method: 'GET', path: EVENTS, status: 304, headers: { etag: ETAG }, body_b64: '' }],
    ['406 with another message', false, { method: 'GET', path: EVENTS, ...ok(406, { status: 'error', message: 'Not found' }, JSONCT) }],
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
