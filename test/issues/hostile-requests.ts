/**
 * @module
 * Hostile requests for every operation of the Issues API, derived from its OpenAPI document
 * (`generated/issues/openapi.openapi.json`) with fast-check: path parameters that name real
 * things or nothing at all, query parameters of the wrong type, length and alphabet, bodies that
 * keep to the schema at its edges (strings of `maxLength`, arrays of `maxItems`) or break it
 * anywhere (a wrong type, one character or item too many, NUL, lone surrogates, unknown fields,
 * deep nesting, text that is not JSON), every kind of credential and of Content-Type.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';

/** A JSON Schema as the generated document spells it (the subset the Issues contract uses). */
export interface Schema {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  readonly items?: Schema;
  readonly maxItems?: number;
  readonly maxLength?: number;
  readonly enum?: readonly unknown[];
  readonly format?: string;
}

interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly schema?: Schema;
}

/** One operation of the document. */
export interface Operation {
  readonly id: string;
  readonly method: string;
  /** The path template under `/api/v1` (`/repos/{owner}/{repo}/issues`). */
  readonly path: string;
  readonly parameters: readonly Parameter[];
  /** The request body's schema, `$ref`s resolved. */
  readonly body?: Schema;
}

/** A request, ready to send. */
export interface HostileRequest {
  readonly operation: string;
  readonly method: string;
  /** Path and query under `/api/v1`. */
  readonly url: string;
  /** Who sends it: one of {@link World.callers}, resolved to a credential when it is sent; `undefined` for anonymous. */
  readonly caller: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** What was generated, for a failure's message. */
  readonly note: string;
}

/** The names, numbers and credentials of the world the requests are sent to. */
export interface World {
  /** Repositories as `[owner, name]`, visible to some callers and not to others. */
  readonly repos: readonly (readonly [string, string])[];
  /** Organization names. */
  readonly orgs: readonly string[];
  readonly users: readonly string[];
  readonly indexes: readonly number[];
  readonly labelIds: readonly number[];
  readonly milestoneIds: readonly number[];
  /** The callers, by name; the test resolves them to credentials. */
  readonly callers: readonly string[];
  /** Callers whose credential is refused or missing (`undefined` for anonymous), sent now and then. */
  readonly refusedCallers: readonly (string | undefined)[];
}

/** The operations of the document, in its order. */
export function loadOperations(root: string): Operation[] {
  const doc = JSON.parse(readFileSync(join(root, 'generated/issues/openapi.openapi.json'), 'utf8')) as {
    paths: Record<
      string,
      Record<string, { operationId: string; parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> } }>
    >;
    components: { schemas: Record<string, Schema> };
  };
  const resolve = (schema: Schema): Schema => {
    if (schema.$ref !== undefined) return resolve(doc.components.schemas[schema.$ref.split('/').at(-1)!]!);
    const properties = schema.properties && Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, resolve(v)]));
    return { ...schema, ...(properties && { properties }), ...(schema.items && { items: resolve(schema.items) }) };
  };
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const content = op.requestBody?.content['application/json'];
      operations.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        ...(content && { body: resolve(content.schema) }),
      });
    }
  }
  return operations;
}

const types = (schema: Schema): string[] =>
  schema.type === undefined ? [] : typeof schema.type === 'string' ? [schema.type] : [...schema.type];

/** Text no server should mind: NUL, lone surrogates, control and right-to-left characters, SQL and path tricks. */
const nasty = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u202e\u0007\u001b[31m',
  "'; DROP TABLE issues; --",
  '" OR 1=1 --',
  '../../etc/passwd',
  '%00%2e%2e%2f',
  '😀'.repeat(300),
  ' ',
  '',
  '{"__proto__":{"admin":true}}',
  'constructor',
);

/** A string near a size: short, at it, one past it, far past it, or nasty. */
function sizedString(max: number | undefined): fc.Arbitrary<string> {
  const limit = max ?? 300;
  return fc.oneof(
    { arbitrary: fc.string({ minLength: 1, maxLength: 20 }), weight: 14 },
    { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }), weight: 2 },
    { arbitrary: fc.constant('x'.repeat(limit)), weight: 1 },
    { arbitrary: fc.constantFrom('ä'.repeat(limit + 1), 'y'.repeat(limit * 4 + 7)), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 50 }), weight: 1 },
    { arbitrary: nasty, weight: 1 },
  );
}

/** Numbers a 64-bit id or a page size might choke on. */
const edgyNumber = fc.oneof(
  fc.integer({ min: -3, max: 5 }),
  fc.constantFrom(2 ** 31, 2 ** 53, 2 ** 53 + 2, 2 ** 63, -(2 ** 63), 1e21, 1e308, -0, 0.5, -1.5),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any JSON value, for places that expect something else. */
const anyJson = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  edgyNumber,
  fc.string({ maxLength: 30 }),
  fc.constant([]),
  fc.constant({}),
  fc.constant([[[[[[[[[[]]]]]]]]]]),
  fc.array(fc.integer(), { maxLength: 5 }),
);

/** A value for `schema`: valid at the edges most of the time, broken some of the time. */
export function value(schema: Schema, world: World, depth = 0): fc.Arbitrary<unknown> {
  const valid = validValue(schema, world, depth);
  // Rarely within a body (one broken field is enough to have it refused), more often at its top.
  return fc.oneof({ arbitrary: valid, weight: depth === 0 ? 5 : 15 }, { arbitrary: anyJson, weight: 1 });
}

function validValue(schema: Schema, world: World, depth: number): fc.Arbitrary<unknown> {
  if (schema.enum !== undefined) return fc.oneof(fc.constantFrom(...schema.enum), sizedString(10));
  const kinds = types(schema).filter((t) => t !== 'null');
  const nullable = types(schema).includes('null');
  const kind = kinds[0];
  let arbitrary: fc.Arbitrary<unknown>;
  switch (kind) {
    case 'string':
      arbitrary =
        schema.format === 'date-time'
          ? fc.oneof(
              fc.date({ min: new Date(-62135596800000), max: new Date(253402300799000), noInvalidDate: true }).map((d) => d.toISOString()),
              fc.constantFrom(
                '0000-01-01T00:00:00Z',
                '9999-12-31T23:59:59-05:00',
                '2025-01-01T00:00:00+99:99',
                'not a date',
                '2025-02-30T00:00:00Z',
              ),
            )
          : schema.format === 'email'
            ? fc.oneof(
                { arbitrary: fc.stringMatching(/^[a-z][a-z0-9]{0,10}@[a-z]{1,8}\.(com|org|test)$/), weight: 4 },
                { arbitrary: fc.emailAddress(), weight: 1 },
                { arbitrary: sizedString(schema.maxLength), weight: 1 },
              )
            : fc.oneof(sizedString(schema.maxLength), fc.constantFrom(...world.users, ...world.repos.map(([, name]) => name), 'nobody'));
      break;
    case 'integer':
      arbitrary = fc.oneof(
        { arbitrary: fc.constantFrom(...world.indexes, ...world.labelIds, ...world.milestoneIds), weight: 6 },
        { arbitrary: fc.integer({ min: -3, max: 100 }), weight: 2 },
        { arbitrary: edgyNumber, weight: 1 },
      );
      break;
    case 'boolean':
      arbitrary = fc.oneof({ arbitrary: fc.boolean(), weight: 8 }, { arbitrary: fc.constantFrom('true', 1, 0), weight: 1 });
      break;
    case 'array': {
      const max = schema.maxItems ?? 50;
      const item = depth > 2 ? anyJson : validValue(schema.items ?? {}, world, depth + 1);
      arbitrary = fc.oneof(
        { arbitrary: fc.array(item, { maxLength: 5 }), weight: 8 },
        // At the limit and one past it, of valid items (a few distinct ones, repeated).
        {
          arbitrary: fc
            .array(item, { minLength: 1, maxLength: 3 })
            .map((few) => Array.from({ length: max }, (_, i) => few[i % few.length])),
          weight: 1,
        },
        {
          arbitrary: fc
            .array(item, { minLength: 1, maxLength: 3 })
            .map((few) => Array.from({ length: max + 1 }, (_, i) => few[i % few.length])),
          weight: 1,
        },
        { arbitrary: fc.array(anyJson, { maxLength: 5 }), weight: 1 },
      );
      break;
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, property] of Object.entries(properties)) record[key] = depth > 3 ? anyJson : value(property, world, depth + 1);
      const required = schema.required ?? [];
      arbitrary = fc
        .tuple(
          // The required fields most of the time, the optional ones now and then.
          fc.oneof(
            { arbitrary: fc.record(record, { requiredKeys: [...required] }), weight: 8 },
            { arbitrary: fc.record(record, { requiredKeys: [] }), weight: 1 },
          ),
          // Now and then a field the contract does not have.
          fc.oneof(
            { arbitrary: fc.constant(null), weight: 12 },
            { arbitrary: fc.tuple(fc.constantFrom('unknown', '__proto__', 'constructor', 'x'.repeat(300)), anyJson), weight: 1 },
          ),
        )
        .map(([object, extra]) => (extra === null ? object : { ...object, [extra[0]]: extra[1] }));
      break;
    }
    default:
      arbitrary = anyJson;
  }
  return nullable ? fc.oneof({ arbitrary, weight: 5 }, { arbitrary: fc.constant(null), weight: 1 }) : arbitrary;
}

/** Bodies that are not the JSON of an object at all. */
const brokenBody = fc.oneof(
  fc.constantFrom('', '{', '{"title":', 'null', '[]', '"text"', '1e999', '{"title":"a","title":"b"}', '\u0000', '{"a":1}garbage'),
  fc.constant('['.repeat(20_000)),
  fc.constant(`${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

/**
 * `encodeURIComponent`, except that a lone surrogate, which it refuses, becomes the bytes a
 * careless client would send for it (`%ED%A0%80`, not UTF-8 at all).
 */
function encode(text: string): string {
  return [...text].map((c) => (/[\ud800-\udfff]/.test(c) ? '%ED%A0%80' : encodeURIComponent(c))).join('');
}

/** An odd path segment: numbers out of range, traversal, encoded NUL and slashes, any text. */
const oddSegment = fc.oneof(
  fc.constantFrom('0', '-1', '99999999999999999999', '1e3', 'abc', '%00', '..', '%2F', 'A'.repeat(300)),
  fc.string({ maxLength: 20 }).map(encode),
);

/** A path parameter other than the repository's: a real name or number most of the time, anything else otherwise. */
function pathValue(name: string, world: World): fc.Arbitrary<string> {
  const real =
    name === 'index'
      ? fc.constantFrom(...world.indexes.map(String))
      : name === 'org'
        ? fc.constantFrom(...world.orgs, ...world.users)
        : fc.constantFrom(...world.users);
  return fc.oneof({ arbitrary: real, weight: 8 }, { arbitrary: oddSegment, weight: 1 });
}

/** `{owner}` and `{repo}` together: a real repository most of the time. */
function repoPath(world: World): fc.Arbitrary<readonly [string, string]> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...world.repos), weight: 8 },
    { arbitrary: fc.tuple(fc.oneof(fc.constantFrom(...world.users), oddSegment), fc.oneof(fc.constant('pub'), oddSegment)), weight: 1 },
  );
}

/** A query value: well-formed for its type, or of the wrong type, length or alphabet. */
function queryValue(name: string, schema: Schema | undefined, world: World): fc.Arbitrary<string> {
  const kind = schema === undefined ? 'string' : types(schema)[0];
  const typed =
    kind === 'integer'
      ? fc.oneof(fc.integer({ min: -2, max: 60 }).map(String), fc.constantFrom(...world.indexes.map(String)))
      : kind === 'boolean'
        ? fc.constantFrom('true', 'false', '1', '0')
        : schema?.format === 'date-time'
          ? fc.constantFrom('2025-01-01T00:00:00Z', '2000-02-29T12:00:00+05:30', '2099-12-31T23:59:59-08:00', '1970-01-01T00:00:00Z')
          : name.endsWith('_by')
            ? fc.constantFrom(...world.users)
            : name === 'state'
              ? fc.constantFrom('open', 'closed', 'all')
              : name === 'type'
                ? fc.constantFrom('issues', 'pulls')
                : fc.oneof(
                    fc.constantFrom('bug', 'bug,ui', 'v1', 'v1,v2', 'crash', 'crash start', ...world.users),
                    fc.string({ maxLength: 30 }),
                  );
  const odd = fc.oneof(
    fc.constantFrom(
      '',
      '\u0000',
      'x'.repeat(5_000),
      `${'a,'.repeat(2_000)}b`,
      '1e999',
      '-99999999999999999999',
      'NaN',
      '2025-13-45T99:99:99Z',
    ),
    nasty,
    edgyNumber.map(String),
  );
  return fc.oneof({ arbitrary: typed, weight: 12 }, { arbitrary: odd, weight: 1 });
}

const contentTypes = fc.oneof(
  { arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain;charset=UTF-8'), weight: 6 },
  {
    arbitrary: fc.constantFrom(undefined, 'application/xml', 'multipart/form-data; boundary=x', 'application/json; charset=latin1'),
    weight: 1,
  },
);

/**
 * Requests for one operation.
 *
 * @example
 * fc.sample(requestsFor(operation, world), 10);
 */
export function requestsFor(operation: Operation, world: World): fc.Arbitrary<HostileRequest> {
  const pathParams = operation.parameters.filter((p) => p.in === 'path' && p.name !== 'owner' && p.name !== 'repo');
  const queryParams = operation.parameters.filter((p) => p.in === 'query');
  const path = fc.tuple(repoPath(world), ...pathParams.map((p) => pathValue(p.name, world))).map(([[owner, repo], ...values]) => {
    let url = operation.path.replace('{owner}', owner).replace('{repo}', repo);
    for (const [i, p] of pathParams.entries()) url = url.replace(`{${p.name}}`, values[i]!);
    return url;
  });
  const query = fc.tuple(...queryParams.map((p) => fc.option(queryValue(p.name, p.schema, world), { freq: 2 }))).map((values) =>
    queryParams
      .map((p, i) => (values[i] === null ? undefined : `${p.name}=${encode(values[i]!)}`))
      .filter((part) => part !== undefined)
      .join('&'),
  );
  // A GET carries no body (fetch refuses one); other operations without one may get one anyway.
  const body: fc.Arbitrary<string | undefined> =
    operation.body === undefined
      ? operation.method === 'GET'
        ? fc.constant(undefined)
        : fc.option(fc.constant('{"unexpected":true}'), { freq: 8 }).map((b) => b ?? undefined)
      : fc.oneof(
          { arbitrary: value(operation.body, world).map((v) => JSON.stringify(v)), weight: 5 },
          { arbitrary: brokenBody, weight: 1 },
        );
  return fc
    .record({
      path,
      query,
      body,
      caller: fc.oneof(
        { arbitrary: fc.constantFrom(...world.callers), weight: 6 },
        { arbitrary: fc.constantFrom(...world.refusedCallers), weight: 1 },
      ),
      contentType: contentTypes,
    })
    .map(({ path: p, query: q, body: b, caller, contentType }) => {
      const headers: Record<string, string> = {};
      if (b !== undefined && contentType !== undefined) headers['content-type'] = contentType;
      const url = q === '' ? p : `${p}?${q}`;
      return {
        operation: operation.id,
        method: operation.method,
        url,
        caller,
        headers,
        ...(b !== undefined && { body: b }),
        note:
          `${operation.method} ${url.slice(0, 200)} caller=${caller ?? 'anonymous'} type=${contentType} ` +
          `body=${(b ?? '').slice(0, 200)}`,
      };
    });
}

/**
 * The worst bodies for an operation: every array of its body at 100,000 items, of a valid and of
 * a wrong item type (the report's 400 kB of labels or assignees), and every string at ten times
 * its size.
 */
export function worstBodies(operation: Operation): { readonly name: string; readonly body: string }[] {
  const properties = operation.body?.properties ?? {};
  const out: { name: string; body: string }[] = [];
  const base: Record<string, unknown> = {};
  for (const key of operation.body?.required ?? []) base[key] = types(properties[key] ?? {}).includes('string') ? 'required' : 1;
  for (const [key, property] of Object.entries(properties)) {
    if (types(property).includes('array')) {
      const itemType = types(property.items ?? {})[0];
      const valid = itemType === 'integer' ? 7 : 'a';
      const wrong = itemType === 'integer' ? 'a' : 0;
      out.push({
        name: `${key}: 100,000 valid items`,
        body: JSON.stringify({ ...base, [key]: Array(100_000).fill(valid) }),
      });
      // As many as fit in the body limit: the report's 100,000 label names, 250,000 assignee numbers.
      const count = itemType === 'integer' ? 200_000 : 250_000;
      out.push({
        name: `${key}: ${count} items of the wrong type`,
        body: JSON.stringify({ ...base, [key]: Array(count).fill(wrong) }),
      });
    }
    if (types(property).includes('string') && property.maxLength !== undefined) {
      out.push({
        name: `${key}: ${property.maxLength * 10} characters`,
        body: JSON.stringify({ ...base, [key]: 'z'.repeat(property.maxLength * 10) }),
      });
    }
  }
  return out;
}
