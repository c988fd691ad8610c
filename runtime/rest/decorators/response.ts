/**
 * @module
 * Reader and writer decorators: `@RequestReader`, `@ResponseWriter`, `@SuppressCheck`, `@ValidateResult`.
 */
import { rawCommon, rawMethod } from '../metadata/store.js';
import type { ValidateFunction, ValueReader, ResponseWriter as Writer } from '../types.js';
import type { ClassOrMethodDecorator } from './route.js';

/** The writer contract, under the decorator's name so one import serves both. */
export type ResponseWriter<T = unknown> = Writer<T>;

/**
 * The reader for the body of a method (or every method of a class). A parameter's own
 * `{ reader }` option wins over it.
 *
 * @example
 * ```ts
 * const csv: ValueReader<string[][]> = { read: (text) => text.trim().split('\n').map((l) => l.split(',')) };
 * @POST @Path('/import') @RequestReader(csv)
 * import(@BodyParam() rows: string[][]) { return { rows: rows.length }; }
 * ```
 */
export function RequestReader(reader: ValueReader): ClassOrMethodDecorator {
  return (target, key) => {
    rawCommon(target, key).reader = reader;
  };
}

/**
 * The writer of a method's (or class's) results; wins over writers registered by type or mime.
 *
 * @example
 * ```ts
 * @GET @Path('/report') @ResponseWriter({ produces: 'text/csv', write: (rows: string[][]) => rows.join('\n') })
 * report() { return [['a', 'b']]; }
 * ```
 */
export function ResponseWriter(writer: Writer): ClassOrMethodDecorator {
  return (target, key) => {
    rawCommon(target, key).writer = writer;
  };
}

/** Skips the registration-time check that a reader's or writer's `type` fits the parameter or result. */
export function SuppressCheck(): ClassOrMethodDecorator {
  return (target, key) => {
    rawCommon(target, key).suppressCheck = true;
  };
}

/**
 * Validates a plain return value with an ajv validator or JSON Schema. A violation is a server
 * bug, not the client's: by default the answer is 500 listing every violation (location `result`);
 * `{ status: 400 }` answers as rest.vertx does.
 *
 * @example
 * ```ts
 * @GET @Path('/issues/{id}') @ValidateResult(validateIssue)
 * get(@PathParam('id', { type: 'integer' }) id: number) { return store.get(id); }
 * ```
 */
export function ValidateResult(validate: ValidateFunction | object, options: { status?: number } = {}): MethodDecorator {
  return (target, key) => {
    const method = rawMethod(target, key);
    method.validateResult = validate;
    if (options.status !== undefined) method.validateResultStatus = options.status;
  };
}
