#!/usr/bin/env node
// Match live HTTP exchanges with mod_ranking against openapi.yaml.
//
//   node t/openapi/check-responses.mjs [--doc FILE] check    < exchanges.json > results.json
//   node t/openapi/check-responses.mjs [--doc FILE] examples  > examples.json
//   node t/openapi/check-responses.mjs [--doc FILE] routes    > routes.json
//
// check: the input is {"exchanges": [E...]} where E is
//   { "id": any, "method": "GET", "path": "/competition/1/wod/" (relative to the mount,
//     no query), "status": 200, "headers": {"content-type": "...", ...} (lower-case
//     names), "body_b64": "<response body, base64>",
//     "request_content_type": "...", "request_body_b64": "..." (optional, PUT/POST),
//     "component": "NotFound" (optional: for a path no route of the document matches,
//     the components/responses entry to check the answer against) }
// and the output {"results": [{ "id", "ok", "route" (the path template), "operation"
// (the method of the operation whose response applies), "response" (its pointer),
// "request_valid", "request_errors": [...], "errors": [...] }]}.  For each exchange:
//   - the path must match exactly one path template of the document (one trailing
//     slash optional, as the document says), each parameter validating against its
//     schema; else the exchange needs "component";
//   - the status must be a response of the operation of that method (for a method the
//     route does not declare, a response of the route's other operations: the 401 and
//     405 answers to undeclared methods are listed there);
//   - every required header of that response must be present and every declared
//     header must validate against its schema;
//   - a response with content: Content-Type must be one of its media types and the
//     body UTF-8; a JSON media type (application/json, */*+json): the body parsed as
//     JSON validates against the media type's schema (JSON Schema 2020-12, Ajv,
//     formats asserted); any other media type: the body, as a string, validates
//     against the schema; text/event-stream besides: the body is split into events
//     (the rules of the HTML standard), and when the media type object names a
//     schema in "x-event-data" (or, per event type, under "x-event-data-by-event"),
//     the data of every event (its "data:" lines joined)
//     parsed as JSON validates against it.  An event stream never ends: the caller
//     sends what it read within a time limit, and an unfinished last event (no empty
//     line after it) is not checked, as a client would not dispatch it.  A response
//     without content (204, HEAD): empty body;
//   - with request_body_b64 and an operation with a requestBody: request_valid tells
//     whether the request body validates against the request schema (the caller
//     decides what it expects).
// examples: every media-type example with an x-live-path extension:
//   {"examples": [{"where", "path", "value"}]}.
// routes: {"routes": [{"path", "methods": {"get": {"200": "<pointer of the response
//   object>", ...}, ...}}]}.
//
// Exit status: 0 when the tool ran (whatever the results), 2 on a usage or I/O error.

import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import YAML from 'yaml';

const here = dirname(fileURLToPath(import.meta.url));
const DOC_ID = 'urn:mod-ranking:openapi';
const METHODS = ['get', 'head', 'put', 'post', 'delete', 'options', 'patch', 'trace'];

function die(msg) {
    process.stderr.write(`check-responses: ${msg}\n`);
    process.exit(2);
}

// ---- arguments ----
let docFile = resolve(here, '../../openapi.yaml');
const args = process.argv.slice(2);
let mode;
while (args.length) {
    const a = args.shift();
    if (a === '--doc') docFile = resolve(args.shift() ?? die('--doc needs a file'));
    else if (!mode && ['check', 'examples', 'routes'].includes(a)) mode = a;
    else die(`usage: check-responses.mjs [--doc FILE] check|examples|routes (got '${a}')`);
}
if (!mode) die('usage: check-responses.mjs [--doc FILE] check|examples|routes');

let doc;
try {
    doc = YAML.parse(readFileSync(docFile, 'utf8'));
} catch (e) {
    die(`${docFile}: ${e.message}`);
}
if (!doc || typeof doc.openapi !== 'string' || !doc.openapi.startsWith('3.1.')) {
    die(`${docFile}: not an OpenAPI 3.1 document`);
}

// ---- JSON pointers and $ref ----
const esc = (s) => String(s).replace(/~/g, '~0').replace(/\//g, '~1');
const unesc = (s) => s.replace(/~1/g, '/').replace(/~0/g, '~');

function at(pointer) {
    if (!pointer.startsWith('#/')) throw new Error(`unsupported $ref ${pointer}`);
    let node = doc;
    for (const part of pointer.slice(2).split('/').map(unesc)) {
        if (node === null || typeof node !== 'object' || !(part in node)) {
            throw new Error(`dangling $ref ${pointer}`);
        }
        node = node[part];
    }
    return node;
}

// Follow $ref of a non-schema object (response, header, parameter): [object, pointer].
function deref(obj, pointer) {
    const seen = new Set();
    while (obj && typeof obj === 'object' && typeof obj.$ref === 'string') {
        if (seen.has(obj.$ref)) throw new Error(`$ref loop at ${obj.$ref}`);
        seen.add(obj.$ref);
        pointer = obj.$ref;
        obj = at(obj.$ref);
    }
    return [obj, pointer];
}

// ---- JSON Schema validation ----
// Ajv compiles a schema document; the OpenAPI document is not one (strict mode refuses
// its "openapi", "paths"... keywords).  So every schema of the document (the entries of
// components/schemas and every "schema" of a parameter, header or media type) is
// copied under $defs of one schema document, its key derived from its JSON pointer in
// openapi.yaml, and each "$ref": "#/..." inside is rewritten to point at the copy.
// Nothing else changes: Ajv validates the document's own schemas, in strict mode.
const SCHEMA_KEYS = new Map();   // pointer in openapi.yaml -> key under $defs
const DEFS = {};

function collectSchemas(node, ptr) {
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
        const p = `${ptr}/${esc(k)}`;
        if (k === 'example' || k === 'examples') continue;   // example values
        // "x-event-data": the schema of an event stream's data (see checkExchange);
        // "x-event-data-by-event": one such schema per event type (its keys)
        if (k === 'schema' || k === 'x-event-data' || ptr === '#/components/schemas'
            || ptr.endsWith('/x-event-data-by-event')) {
            SCHEMA_KEYS.set(p, `s${SCHEMA_KEYS.size}`);
            DEFS[SCHEMA_KEYS.get(p)] = v;
        } else {
            collectSchemas(v, p);
        }
    }
}
collectSchemas(doc, '#');

// "#/components/schemas/X/..." -> "#/$defs/<key of X>/..."
function rewriteRef(ref) {
    if (!ref.startsWith('#/')) throw new Error(`unsupported $ref ${ref} (only local references)`);
    let best = null;
    for (const p of SCHEMA_KEYS.keys()) {
        if ((ref === p || ref.startsWith(p + '/')) && (!best || p.length > best.length)) best = p;
    }
    if (!best) throw new Error(`$ref ${ref} does not point at a schema`);
    at(best);   // dangling?
    return `#/$defs/${SCHEMA_KEYS.get(best)}${ref.slice(best.length)}`;
}

function rewrite(schema) {
    if (Array.isArray(schema)) return schema.map(rewrite);
    if (!schema || typeof schema !== 'object') return schema;
    const out = {};
    for (const [k, v] of Object.entries(schema)) {
        out[k] = k === '$ref' && typeof v === 'string' ? rewriteRef(v)
            : k === 'const' || k === 'enum' || k === 'examples' || k === 'default' || k === 'example'
                ? v : rewrite(v);
    }
    return out;
}
for (const key of Object.keys(DEFS)) DEFS[key] = rewrite(DEFS[key]);

const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
addFormats(ajv);
// keywords of the OpenAPI 3.1 base dialect beyond JSON Schema 2020-12
ajv.addVocabulary(['discriminator', 'xml', 'externalDocs', 'example']);
ajv.addSchema({ $id: DOC_ID, $defs: DEFS });
const compiled = new Map();

// A validator of the schema at POINTER (a JSON pointer "#/..." into openapi.yaml).
function validator(pointer) {
    let v = compiled.get(pointer);
    if (!v) {
        v = ajv.compile({ $ref: DOC_ID + rewriteRef(pointer) });
        compiled.set(pointer, v);
    }
    return v;
}

function validate(pointer, value) {
    const v = validator(pointer);
    if (v(value)) return [];
    return v.errors.map((e) => `${e.instancePath || '(root)'} ${e.message}` +
        (e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''));
}

// ---- routes ----
function routes() {
    return Object.entries(doc.paths ?? {}).map(([tpl, item]) => {
        const params = {};
        for (const [i, p] of (item.parameters ?? []).entries()) {
            const [param, ptr] = deref(p, `#/paths/${esc(tpl)}/parameters/${i}`);
            if (param.in === 'path') params[param.name] = { param, ptr };
        }
        return { tpl, item, params, segs: tpl.split('/').slice(1) };
    });
}
const ROUTES = routes();

function segments(path) {
    return path.startsWith('/') ? path.split('/').slice(1) : null;
}

// The routes of the document that PATH matches: [{route, values}].
function match(path) {
    const segs = segments(path);
    if (!segs) return [];
    const out = [];
    for (const r of ROUTES) {
        // one trailing slash is optional: "/a/b" and "/a/b/" are the same route
        const want = r.segs.at(-1) === '' ? r.segs.slice(0, -1) : r.segs;
        const got = segs.at(-1) === '' ? segs.slice(0, -1) : segs;
        if (want.length !== got.length) continue;
        const values = {};
        let ok = true;
        for (let i = 0; ok && i < want.length; i++) {
            const m = /^\{([^}]+)\}$/.exec(want[i]);
            if (!m) {
                ok = want[i] === got[i];
                continue;
            }
            const p = r.params[m[1]];
            if (!p) throw new Error(`${r.tpl}: path parameter ${m[1]} is not declared`);
            let value;
            try {
                value = decodeURIComponent(got[i]);
            } catch {
                ok = false;
                continue;
            }
            ok = value.length > 0 && validate(`${p.ptr}/schema`, value).length === 0;
            values[m[1]] = value;
        }
        if (ok) out.push({ route: r, values });
    }
    return out;
}

// The response object for METHOD and STATUS on ROUTE: [response, pointer] or an error.
function findResponse(route, method, status) {
    const base = `#/paths/${esc(route.tpl)}`;
    const op = route.item[method];
    const code = String(status);
    if (op) {
        if (op.responses?.[code]) {
            return [...deref(op.responses[code], `${base}/${method}/responses/${code}`), method];
        }
        return [null, `${method.toUpperCase()} ${route.tpl} declares no ${code} response ` +
            `(declared: ${Object.keys(op.responses ?? {}).join(', ')})`];
    }
    // an undeclared method: the route answers it with 401 or 405, listed on its
    // declared operations; all the ones that list the status must agree
    const found = METHODS.filter((m) => route.item[m]?.responses?.[code]);
    if (!found.length) {
        return [null, `${route.tpl} has no ${method.toUpperCase()} operation and none of its ` +
            `operations declares ${code}`];
    }
    // prefer the answer of a method with a body (GET's, not HEAD's)
    const m = found.find((x) => x !== 'head' && x !== 'options') ?? found[0];
    return [...deref(route.item[m].responses[code], `${base}/${m}/responses/${code}`), m];
}

function mediaType(ct) {
    return (ct ?? '').split(';')[0].trim().toLowerCase();
}

const isJson = (mt) => mt === 'application/json' || /^[a-z0-9.+-]+\/[a-z0-9.+-]*\+json$/.test(mt);

// The events of a text/event-stream body, as a client dispatches them (HTML standard,
// "Server-sent events", interpreting an event stream): [{id, event, data}], data being
// the "data:" lines joined by LF; an event without data, and the unfinished last one
// (no empty line after it), are not dispatched.
function sseEvents(text) {
    const events = [];
    let data = null, event = null, id = null;
    const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
    lines.pop();   // what follows the last line break: not a complete line
    for (const line of lines) {
        if (line === '') {
            if (data !== null) events.push({ id, event: event ?? 'message', data: data.replace(/\n$/, '') });
            data = event = null;
            continue;
        }
        if (line.startsWith(':')) continue;   // a comment
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') data = (data ?? '') + value + '\n';
        else if (field === 'event') event = value;
        else if (field === 'id' && !value.includes('\0')) id = value;
    }
    return events;
}

function checkExchange(ex, result) {
    const errors = result.errors;
    const method = String(ex.method ?? '').toLowerCase();
    const headers = Object.fromEntries(
        Object.entries(ex.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
    const body = Buffer.from(ex.body_b64 ?? '', 'base64');

    let response, respPtr, route = null;
    const matches = match(ex.path ?? '');
    if (matches.length > 1) {
        errors.push(`path ${ex.path} matches several routes: ${matches.map((m) => m.route.tpl).join(', ')}`);
        return result;
    }
    if (matches.length === 1) {
        route = matches[0].route;
        result.route = route.tpl;
        [response, respPtr, result.operation] = findResponse(route, method, ex.status);
        if (!response) {
            errors.push(respPtr);
            return result;
        }
    } else if (ex.component) {
        respPtr = `#/components/responses/${esc(ex.component)}`;
        try {
            [response, respPtr] = deref(at(respPtr), respPtr);
        } catch (e) {
            errors.push(e.message);
            return result;
        }
        result.route = `(no route: ${ex.component})`;
    } else {
        errors.push(`no path of the document matches ${ex.path}`);
        return result;
    }
    result.response = respPtr;

    // headers
    for (const [name, h0] of Object.entries(response.headers ?? {})) {
        const [h, hPtr] = deref(h0, `${respPtr}/headers/${esc(name)}`);
        const got = headers[name.toLowerCase()];
        if (got === undefined) {
            if (h.required) errors.push(`header ${name} is missing`);
            continue;
        }
        if (h.schema) {
            for (const e of validate(`${hPtr}/schema`, got)) errors.push(`header ${name}: ${JSON.stringify(got)} ${e}`);
        }
    }

    // body
    const content = response.content ?? {};
    const types = Object.keys(content);
    if (!types.length) {
        if (body.length) errors.push(`the response declares no content but the body has ${body.length} bytes`);
    } else {
        const mt = mediaType(headers['content-type']);
        if (!types.includes(mt)) {
            errors.push(`Content-Type ${JSON.stringify(headers['content-type'] ?? null)} is not one of ${types.join(', ')}`);
        } else {
            let text, value;
            try {
                text = new TextDecoder('utf-8', { fatal: true }).decode(body);
            } catch {
                errors.push('the body is not UTF-8');
            }
            if (text !== undefined && isJson(mt)) {
                try {
                    value = JSON.parse(text);
                } catch (e) {
                    errors.push(`the body is not JSON (${e.message}): ${text.slice(0, 200)}`);
                }
            } else {
                value = text;   // a text media type: the schema describes the string
            }
            if (value !== undefined) {
                const sPtr = `${respPtr}/content/${esc(mt)}/schema`;
                if (!content[mt].schema) errors.push(`${sPtr}: no schema`);
                else for (const e of validate(sPtr, value)) errors.push(`body ${e}`);
            }
            const byEvent = content[mt]['x-event-data-by-event'];
            if (text !== undefined && mt === 'text/event-stream' && (content[mt]['x-event-data'] || byEvent)) {
                for (const [i, ev] of sseEvents(text).entries()) {
                    const name = `event ${i + 1} (id ${ev.id ?? 'none'}, ${ev.event})`;
                    // the schema of that event type's data, when the document gives one per type
                    const dPtr = byEvent ? `${respPtr}/content/${esc(mt)}/x-event-data-by-event/${esc(ev.event ?? '')}`
                        : `${respPtr}/content/${esc(mt)}/x-event-data`;
                    if (byEvent && !byEvent[ev.event]) {
                        errors.push(`${name}: no schema for the data of event type ${JSON.stringify(ev.event)}`);
                        continue;
                    }
                    let data;
                    try {
                        data = JSON.parse(ev.data);
                    } catch (e) {
                        errors.push(`${name}: data is not JSON (${e.message}): ${ev.data.slice(0, 200)}`);
                        continue;
                    }
                    for (const e of validate(dPtr, data)) errors.push(`${name}: data ${e}`);
                }
            }
        }
    }

    // the request body against the operation's request schema
    if (ex.request_body_b64 !== undefined && route) {
        const op = route.item[method];
        if (op?.requestBody) {
            const [rb, rbPtr] = deref(op.requestBody, `#/paths/${esc(route.tpl)}/${method}/requestBody`);
            const mt = mediaType(ex.request_content_type);
            const reqErrors = [];
            if (!rb.content?.[mt]) {
                reqErrors.push(`request Content-Type ${JSON.stringify(ex.request_content_type ?? null)} is not one of ${Object.keys(rb.content ?? {}).join(', ')}`);
            } else {
                let value;
                try {
                    const text = new TextDecoder('utf-8', { fatal: true })
                        .decode(Buffer.from(ex.request_body_b64, 'base64'));
                    // a JSON media type: the parsed body; another (text/csv): the text
                    value = isJson(mt) ? JSON.parse(text) : text;
                } catch (e) {
                    reqErrors.push(`request body is not UTF-8${isJson(mt) ? ' JSON' : ''} (${e.message})`);
                }
                if (value !== undefined) {
                    for (const e of validate(`${rbPtr}/content/${esc(mt)}/schema`, value)) reqErrors.push(`request ${e}`);
                }
            }
            result.request_valid = reqErrors.length === 0;
            result.request_errors = reqErrors;
        }
    }

    result.ok = errors.length === 0;
    return result;
}

function examples() {
    const out = [];
    const walk = (node, ptr) => {
        if (!node || typeof node !== 'object') return;
        if (typeof node['x-live-path'] === 'string' && 'value' in node) {
            out.push({ where: ptr, path: node['x-live-path'], value: node.value });
            return;
        }
        for (const [k, v] of Object.entries(node)) walk(v, `${ptr}/${esc(k)}`);
    };
    walk(doc, '#');
    return out;
}

function routeTable() {
    return ROUTES.map((r) => ({
        path: r.tpl,
        methods: Object.fromEntries(METHODS.filter((m) => r.item[m]).map((m) => [m,
            Object.fromEntries(Object.entries(r.item[m].responses ?? {}).map(([code, resp]) =>
                [code, deref(resp, `#/paths/${esc(r.tpl)}/${m}/responses/${code}`)[1]]))])),
    }));
}

// ---- main ----
try {
    if (mode === 'examples') {
        process.stdout.write(JSON.stringify({ examples: examples() }) + '\n');
    } else if (mode === 'routes') {
        process.stdout.write(JSON.stringify({ routes: routeTable() }) + '\n');
    } else {
        let input;
        try {
            input = JSON.parse(readFileSync(0, 'utf8'));
        } catch (e) {
            die(`input: ${e.message}`);
        }
        if (!Array.isArray(input?.exchanges)) die('input: no "exchanges" array');
        const results = input.exchanges.map((ex) => {
            const result = { id: ex.id, ok: false, route: null, response: null, errors: [] };
            try {
                return checkExchange(ex, result);
            } catch (e) {
                // e.g. a schema Ajv cannot compile (strict mode)
                result.ok = false;
                result.errors.push(`internal: ${e.message}`);
                return result;
            }
        });
        process.stdout.write(JSON.stringify({ results }) + '\n');
    }
} catch (e) {
    die(e.stack || e.message);
}
