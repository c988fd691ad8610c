/**
 * @module
 * Ready-made conversions (xp-forge's `Matrix` and `SeparatedBy`) and a helper to write your own.
 */

import { errorMessage } from '../errors.js';
import type { Conversion } from '../types.js';
import { ConversionError } from './convert.js';

/**
 * Marks a conversion that takes every value of a repeated parameter: the reader hands it an array
 * when the key comes more than once (`?select=a&select=b`, or PHP's `?select[]=a`).
 */
export const ALL_VALUES: unique symbol = Symbol('loom.rest.allValues');

/**
 * Splits a string on a separator; arrays pass through unchanged and an empty string gives `[]`.
 * As in xp-forge, one declaration takes both forms: `?tags=a,b` is split, and a repeated key
 * (`?tags=a&tags=b`, or `?tags[]=a&tags[]=b`) arrives as an array, kept as sent.
 *
 * @example
 * ```ts
 * list(@QueryParam('tags') @Convert(SeparatedBy(',')) tags: string[]) { … } // ?tags=a,b → ['a', 'b']
 * ```
 */
export function SeparatedBy(separator: string): Conversion & { readonly [ALL_VALUES]: true } {
  return {
    [ALL_VALUES]: true,
    convert: (input) => (typeof input === 'string' ? (input === '' ? [] : input.split(separator)) : input),
  };
}

/**
 * Marks a conversion that reads a path parameter's whole segment as sent, matrix parameters
 * included (routing strips them from the values of other path parameters).
 */
export const WHOLE_SEGMENT: unique symbol = Symbol('loom.rest.wholeSegment');

/**
 * Parses a matrix segment: `status=COMPLETED;orgunits=A,B` → `{ status: 'COMPLETED', orgunits: ['A', 'B'] }`.
 * A value containing `,` becomes a list, a key without `=` maps to `null`; non-strings pass through.
 * On a path parameter it receives the whole segment, decoded (as xp-forge does).
 *
 * @example
 * ```ts
 * @GET @Path('/inventory/{filter}')
 * list(@PathParam('filter') @Convert(Matrix()) filter: Record<string, string | string[] | null>) { … }
 * // GET /inventory/status=COMPLETED;orgunits=A,B → { status: 'COMPLETED', orgunits: ['A', 'B'] }
 * ```
 */
export function Matrix(): Conversion & { readonly [WHOLE_SEGMENT]: true } {
  return {
    [WHOLE_SEGMENT]: true,
    convert: (input) => {
      if (typeof input !== 'string') return input;
      const out: Record<string, string | string[] | null> = {};
      for (const part of input.split(';')) {
        if (part === '') continue;
        const eq = part.indexOf('=');
        if (eq < 0) {
          out[part] = null;
          continue;
        }
        const value = part.slice(eq + 1);
        out[part.slice(0, eq)] = value.includes(',') ? value.split(',') : value;
      }
      return out;
    },
  };
}

/**
 * Wraps a function as a conversion; throwing rejects the value with 400 and the error's message.
 *
 * @example
 * ```ts
 * const upper = conversion((v) => String(v).toUpperCase());
 * ```
 */
export function conversion(fn: (input: unknown) => unknown): Conversion {
  return {
    convert: (input) => {
      try {
        return fn(input);
      } catch (e) {
        throw new ConversionError(errorMessage(e));
      }
    },
  };
}
