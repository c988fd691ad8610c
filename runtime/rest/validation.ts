/**
 * @module
 * ajv glue: a default compiler for hand-written schemas and the mapping from ajv errors to violations.
 */
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { SchemaCompiler } from './config.js';
import type { Violation, ViolationLocation } from './errors.js';
import type { ValidateFunction } from './types.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

/** A fresh ajv with every error reported and the common formats, for `schema` options. */
export function createDefaultAjv(): SchemaCompiler {
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false });
  addFormats(ajv);
  return { compile: (schema) => ajv.compile(schema) as unknown as ValidateFunction };
}

/**
 * Runs a validator and returns one violation per ajv error.
 *
 * @example
 * ```ts
 * validationViolations(validateIssue, body, 'body', 'body');
 * // [{ location: 'body', name: '/title', message: 'must be string' }]
 * ```
 */
export function validationViolations(validate: ValidateFunction, value: unknown, location: ViolationLocation, name: string): Violation[] {
  return validate(value) ? [] : failedValidation(validate, location, name);
}

/**
 * The violations of a validator's last, failed run (ajv keeps its errors on the function), for
 * callers that already called it: the valid case, which is most requests, then costs one call.
 * At most `limit` are made, however many errors the validator found.
 */
export function failedValidation(
  validate: ValidateFunction,
  location: ViolationLocation,
  name: string,
  limit = Number.POSITIVE_INFINITY,
): Violation[] {
  const errors = validate.errors ?? [];
  if (errors.length === 0) return [{ location, name, message: 'is invalid' }];
  const violations: Violation[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (violations.length >= limit) break;
    // `if` only says its `then` failed, whose own errors are listed (a subtype picked by its tag).
    if (e.keyword === 'if') continue;
    const missing = e.params?.['missingProperty'];
    const extra = e.params?.['additionalProperty'];
    const pointer = `${e.instancePath}${typeof missing === 'string' ? `/${missing}` : ''}${typeof extra === 'string' ? `/${extra}` : ''}`;
    const where = location === 'body' || location === 'result' ? pointer || '/' : pointer ? `${name}${pointer}` : name;
    const message = e.message ?? e.keyword;
    // A base's rule fails again in the subtype that repeats it: say it once.
    const key = `${where}\0${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    violations.push({ location, name: where, message });
  }
  return violations.length > 0 ? violations : [{ location, name, message: 'is invalid' }];
}

/**
 * Adds a failed validator's violations to a request's list, stopping one past `max` in all: the
 * list stays bounded, and one more than `max` tells the answer that some were left out.
 * Never spreads into an argument list, which a hundred thousand errors would overflow.
 */
export function reportFailedValidation(
  violations: Violation[],
  validate: ValidateFunction,
  location: ViolationLocation,
  name: string,
  max: number,
): void {
  const room = max + 1 - violations.length;
  if (room <= 0) return;
  for (const v of failedValidation(validate, location, name, room)) violations.push(v);
}
