/**
 * @module
 * JSON Schema keywords as the OpenAPI loader reads them, apart from the conversion itself: types
 * and nullability in every dialect's spelling, validation keywords, enums, file contents, and the
 * keywords Loom reads no further (with a warning).
 */

import { bareMediaType } from '../../model/media-types.js';
import type { Constraints, TypeRef } from '../../model/model.js';
import { usesUnicodeSyntax } from '../../model/patterns.js';
import type { Mutable } from '../../model/type-utils.js';
import { type At, isObject, type Json } from './document.js';
import { childPointer } from './refs.js';

/** Where keyword problems go: the converter's problems (problems.ts), which know each document's locations. */
export interface Reporter {
  warn(at: At, message: string): void;
  fail(at: At, message: string): void;
  /** A refusal `--lenient` steps past by doing `consequence`. */
  refuse(at: At, message: string, consequence: string): void;
}

export const IGNORED_KEYWORDS = [
  'not',
  'if',
  'then',
  'else',
  'patternProperties',
  'prefixItems',
  'dependentSchemas',
  'dependentRequired',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'propertyNames',
] as const;

export const CONSTRAINT_KEYS = [
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
] as const;

export function typeList(schema: Json): string[] {
  const t = schema['type'];
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  return [];
}

/** Nullable by any dialect's spelling: 3.0 `nullable`, 3.1 `type: [x, 'null']`, Swagger `x-nullable`. */
export function isNullable(schema: Json): boolean {
  return schema['nullable'] === true || schema['x-nullable'] === true || typeList(schema).includes('null');
}

export function withNullable(type: TypeRef): TypeRef {
  switch (type.kind) {
    case 'literal':
    case 'unknown':
      return type;
    default:
      return { ...type, nullable: true };
  }
}

/**
 * The `$ref` a schema only forwards to: `{ $ref }`, or a `oneOf`/`anyOf`/`allOf` whose single
 * part is a `$ref` with nothing else beside it that gives a shape. Used to find chains of
 * named schemas that never reach one with content.
 */
export function soleRef(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  if (typeof schema['$ref'] === 'string') return schema['$ref'];
  if (
    schema['type'] !== undefined ||
    schema['properties'] !== undefined ||
    schema['items'] !== undefined ||
    schema['additionalProperties'] !== undefined
  )
    return undefined;
  const lists = (['oneOf', 'anyOf', 'allOf'] as const).filter((k) => schema[k] !== undefined);
  if (lists.length !== 1) return undefined;
  const parts = schema[lists[0]!];
  if (!Array.isArray(parts) || parts.length !== 1) return undefined;
  const only: unknown = parts[0];
  return isObject(only) && typeof only['$ref'] === 'string' ? only['$ref'] : undefined;
}

/**
 * The validation keywords of a schema (`minLength`, `pattern`, exclusive bounds in either
 * dialect's spelling, …). A pattern is checked here, where its location is known: one that is no
 * regular expression is refused (with `--lenient`, left unchecked), one written for the `u` flag
 * but not valid with it a warning.
 *
 * @example
 * constraintsOf({ type: 'string', maxLength: 5 }, at, converter); // { maxLength: 5 }
 */
export function constraintsOf(schema: Json, at: At, report: Reporter): Constraints | undefined {
  let c: Mutable<Constraints> | undefined;
  for (const key of CONSTRAINT_KEYS) {
    const v = schema[key];
    if (typeof v === 'number') (c ??= {})[key] = v;
  }
  if (typeof schema['pattern'] === 'string') {
    // Checked here, where the location is known, rather than when the validators compile.
    const pattern = schema['pattern'];
    const problem = patternProblem(pattern);
    if (problem === undefined) {
      (c ??= {}).pattern = pattern;
      const unicodeProblem = usesUnicodeSyntax(pattern) ? patternProblem(pattern, 'u') : undefined;
      if (unicodeProblem !== undefined) {
        report.warn(
          { doc: at.doc, pointer: childPointer(at.pointer, 'pattern') },
          `pattern ${JSON.stringify(pattern)} is written for the regular expression 'u' flag ` +
            `(\\p{…}, \\u{…} or characters beyond U+FFFF) but is not valid with it (${unicodeProblem}), ` +
            `so validators read it without the flag, where \\p{L} matches the letters 'p{L}'; make it valid with the 'u' flag ` +
            `(there a backslash may only come before a character that has a meaning, such as \\\\ . * + ? ( ) [ ] { } | ^ $ /)`,
        );
      }
    } else
      report.refuse(
        { doc: at.doc, pointer: childPointer(at.pointer, 'pattern') },
        `pattern ${JSON.stringify(pattern)} is not a valid regular expression (${problem}); ` +
          `fix it: patterns are ECMA-262 regular expressions`,
        'the pattern is not checked',
      );
  }
  if (schema['uniqueItems'] === true) (c ??= {}).uniqueItems = true;
  // OpenAPI 3.0 / Swagger 2.0 spell exclusive bounds as booleans beside minimum/maximum.
  const exclusiveMinimum = schema['exclusiveMinimum'];
  if (typeof exclusiveMinimum === 'number') (c ??= {}).exclusiveMinimum = exclusiveMinimum;
  else if (exclusiveMinimum === true && c?.minimum !== undefined) {
    c.exclusiveMinimum = c.minimum;
    delete c.minimum;
  }
  const exclusiveMaximum = schema['exclusiveMaximum'];
  if (typeof exclusiveMaximum === 'number') (c ??= {}).exclusiveMaximum = exclusiveMaximum;
  else if (exclusiveMaximum === true && c?.maximum !== undefined) {
    c.exclusiveMaximum = c.maximum;
    delete c.maximum;
  }
  return c;
}

/**
 * Whether a named schema is an enum Loom declares as such (`const` object plus union type): an
 * `enum` of strings only, or of integers only (`null` aside).
 *
 * @example
 * enumKind({ enum: ['open', 'closed'] }); // 'string'
 */
export function enumKind(schema: Json): 'string' | 'integer' | undefined {
  if (!Array.isArray(schema['enum']) || schema['const'] !== undefined) return undefined;
  const values = schema['enum'].filter((v) => v !== null);
  if (values.length === 0) return undefined;
  if (values.every((v) => typeof v === 'string')) return 'string';
  if (values.every((v) => typeof v === 'number' && Number.isInteger(v))) return 'integer';
  return undefined;
}

/** Warns once per keyword Loom reads no further (`not`, `propertyNames`, …) in a schema object. */
export function warnIgnoredKeywords(schema: Json, at: At, report: Reporter): void {
  for (const keyword of IGNORED_KEYWORDS) {
    if (schema[keyword] !== undefined)
      report.warn(
        { doc: at.doc, pointer: childPointer(at.pointer, keyword) },
        `keyword '${keyword}' is ignored: generated types and validators do not enforce it`,
      );
  }
}

/**
 * OpenAPI 3.1 spells a file as a string with `contentMediaType` (what FastAPI writes for
 * `UploadFile`) where 3.0 wrote `format: binary`: raw bytes, unless `contentEncoding` (`base64`,
 * …) makes them text or the media type is itself text (`text/*`, JSON, XML, YAML, …).
 *
 * @example
 * isBinaryContent({ type: 'string', contentMediaType: 'image/png' }); // true
 * isBinaryContent({ type: 'string', contentMediaType: 'application/json' }); // false: JSON text
 */
export function isBinaryContent(schema: Json): boolean {
  const media = schema['contentMediaType'];
  if (typeof media !== 'string' || schema['contentEncoding'] !== undefined) return false;
  const mime = bareMediaType(media);
  return !(TEXT_MEDIA.test(mime) || TEXT_MEDIA_EXACT.has(mime));
}

/**
 * Why a `pattern` is not a regular expression the generated validators can use, or undefined. They
 * compile patterns without the `u` flag (real schemas write `[\w-]` and `\/`, which it rejects).
 *
 * @example
 * patternProblem('^[a-z+$'); // 'Invalid regular expression: /^[a-z+$/: Unterminated character class'
 */
export function patternProblem(pattern: string, flags = ''): string | undefined {
  try {
    new RegExp(pattern, flags);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** Media types whose content is text: `text/*`, and JSON, XML or YAML by any name. */
export const TEXT_MEDIA = /^text\/|[/+](json|xml|yaml)$/;
export const TEXT_MEDIA_EXACT: ReadonlySet<string> = new Set([
  'application/x-www-form-urlencoded',
  'application/javascript',
  'application/x-yaml',
]);
