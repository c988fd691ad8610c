/**
 * @module
 * Compiling a file's validators as a job that can run anywhere (this thread, a worker thread) and
 * be cached: its input is JSON data and its result text ({@link compileStandalone}), named by a
 * key that changes whenever anything the result depends on does ({@link compileCacheKey}).
 */
import { createHash } from 'node:crypto';
import { needsUnicodeFlag, UNICODE_ONLY } from '../../model/patterns.js';
import type { JsonSchema } from '../json-schema/index.js';
import { type CompiledValidators, compileValidators, MAX_ERRORS } from './codegen.js';
import { FORMAT_TYPES, formatsSource, RUNTIME_HELPERS } from './formats.js';

export type { CompileInput } from './codegen.js';

import type { CompileInput } from './codegen.js';

/**
 * The compiler's own source: a change to it (a new helper, a different message) must not serve
 * code compiled by the one before. Computed once per process.
 */
let fingerprint: string | undefined;
function compilerFingerprint(): string {
  fingerprint ??= [
    'loom-validators-2',
    String(MAX_ERRORS),
    compileValidators.toString(),
    // The class and the helpers' sources, through the module's exports that print them.
    compileValidators({ documents: [SELF_TEST], exports: new Map([['validateA', 'loom:fingerprint#/$defs/A']]) }).code,
    formatsSource(Object.keys(FORMAT_TYPES)),
    JSON.stringify(RUNTIME_HELPERS),
    needsUnicodeFlag.toString(),
    UNICODE_ONLY.source,
  ].join('\0');
  return fingerprint;
}

/** A schema that uses every keyword the compiler prints, so its output changes whenever any printed code does. */
const SELF_TEST: JsonSchema = {
  $id: 'loom:fingerprint',
  $defs: {
    A: {
      type: 'object',
      required: ['a'],
      properties: {
        a: { type: ['string', 'null'], minLength: 1, maxLength: 2, pattern: '^x', format: 'date-time' },
        b: {
          type: 'array',
          minItems: 1,
          maxItems: 2,
          uniqueItems: true,
          items: { type: 'integer', minimum: 0, exclusiveMaximum: 9, multipleOf: 3 },
        },
        c: { enum: ['x', 'y'], not: { const: 'y' } },
        d: { anyOf: [{ type: 'string' }, { type: 'number' }], oneOf: [{ type: 'string' }, { type: 'number' }] },
        e: { type: 'object', propertyNames: { format: 'date' }, additionalProperties: { $ref: '#/$defs/A' }, minProperties: 1 },
        f: { type: 'object', discriminator: { propertyName: 't' }, required: ['t'], oneOf: [{ properties: { t: { const: 'a' } } }] },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's `if`/`then` keyword, data for a validator, never awaited.
        g: { allOf: [{ if: { required: ['x'] }, then: { required: ['y'] } }] },
      },
      additionalProperties: false,
    },
  },
};

/**
 * A key naming everything the compiled code depends on: the documents, the exports and the
 * compiler itself, so a cached result is never stale. `documentsJson` is `input.documents` as
 * JSON, when the caller has it already.
 *
 * @example
 * compileCacheKey(job.input, job.documentsJson); // '3f2a…' (hex SHA-256)
 */
export function compileCacheKey(input: CompileInput, documentsJson = JSON.stringify(input.documents)): string {
  const hash = createHash('sha256');
  hash.update(compilerFingerprint());
  hash.update('\0');
  hash.update(documentsJson);
  hash.update(JSON.stringify([...input.exports]));
  return hash.digest('hex');
}

/**
 * Compiles a file's validators into text: the code and the other files' validators it calls, as
 * JSON, so that a worker thread or a cache can hand it back as it is.
 *
 * @example
 * const compiled = parseCompiled(compileStandalone(job.input));
 * compiled.code; // 'function v0(d, p, e) { … }\nexport const validateIssue = X(v0);'
 */
export function compileStandalone(input: CompileInput): string {
  return JSON.stringify(compileValidators(input));
}

/** The result of {@link compileStandalone}, read back. */
export function parseCompiled(text: string): CompiledValidators {
  return JSON.parse(text) as CompiledValidators;
}
