#!/usr/bin/env node
// node t/openapi/schema-check.mjs FILE: validates FILE against the official JSON Schema
// of its OpenAPI version (@seriousme/openapi-schema-validator) and requires 3.1.
// Prints the validator's answer; exits 0 when valid, 1 when not.
import { Validator } from '@seriousme/openapi-schema-validator';

const file = process.argv[2];
if (!file) {
    console.error('usage: schema-check.mjs FILE');
    process.exit(2);
}
const v = new Validator();
const res = await v.validate(file);
if (res.valid && !String(v.version).startsWith('3.1')) {
    res.valid = false;
    res.errors = `OpenAPI version ${v.version}, expected 3.1`;
}
console.log(JSON.stringify({ version: v.version, ...res }, null, 2));
process.exit(res.valid ? 0 : 1);
