/**
 * @module
 * Seeded random inputs for a message type, walked from protobufjs' reflection of a descriptor
 * (not from the code under test): proto3 JSON as a peer might send it, mostly valid, sometimes
 * wrong in one of the ways a reader must refuse; and mutations of a valid message in Loom's
 * shape, the ways a handler might get one wrong before it is written.
 */
import protobuf from 'protobufjs';

/** A seeded pseudo-random source (mulberry32), so that a failure names a case that can be run again. */
export class Rng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

/** How wrong a generated input may be: `clean` is valid JSON of the type; `dirty` is wrong now and then. */
export type Mode = 'clean' | 'dirty';

const WRAPPERS: Readonly<Record<string, string>> = {
  '.google.protobuf.DoubleValue': 'double',
  '.google.protobuf.FloatValue': 'float',
  '.google.protobuf.Int64Value': 'int64',
  '.google.protobuf.UInt64Value': 'uint64',
  '.google.protobuf.Int32Value': 'int32',
  '.google.protobuf.UInt32Value': 'uint32',
  '.google.protobuf.BoolValue': 'bool',
  '.google.protobuf.StringValue': 'string',
  '.google.protobuf.BytesValue': 'bytes',
};

const MAX_DEPTH = 4;

/** Random proto3 JSON for the types of one protobufjs root. */
export class JsonWalk {
  readonly #rng: Rng;
  readonly #mode: Mode;
  /** Types an `Any` may hold: none of them reaches a proto2 `required` field (see the test's notes). */
  readonly #packable: protobuf.Type[];

  constructor(root: protobuf.Root, rng: Rng, mode: Mode) {
    this.#rng = rng;
    this.#mode = mode;
    this.#packable = allTypes(root).filter((t) => !reachesRequired(t, new Set()) && t.fullName !== '.google.protobuf.Any');
  }

  /** Whether to get this one wrong. */
  #wrong(): boolean {
    return this.#mode === 'dirty' && this.#rng.chance(0.08);
  }

  message(type: protobuf.Type, depth = 0): unknown {
    const rng = this.#rng;
    const special = this.#wellKnown(type, depth);
    if (special !== undefined) return special.value;
    if (this.#wrong()) return rng.pick([5, 'x', [], true]);
    const out: Record<string, unknown> = {};
    const oneofsSet = new Set<string>();
    for (const raw of type.fieldsArray) {
      const field = raw.resolve();
      if (rng.chance(depth >= MAX_DEPTH ? 0.9 : 0.45)) continue;
      // One member per oneof, unless this one is to be wrong.
      if (field.partOf && field.partOf.oneof.length > 1) {
        if (oneofsSet.has(field.partOf.name) && !this.#wrong()) continue;
        oneofsSet.add(field.partOf.name);
      }
      const key = this.#keyOf(field);
      if (this.#mode === 'dirty' && rng.chance(0.05)) out[key] = null;
      else out[key] = this.#fieldValue(field, depth);
      if (this.#mode === 'dirty' && rng.chance(0.02))
        out[field.protoName === key ? field.jsonName : field.protoName] = this.#fieldValue(field, depth);
    }
    if (this.#mode === 'dirty' && rng.chance(0.06))
      out[rng.pick(['nope', 'extra_field', 'unknownThing'])] = rng.pick([1, 'x', { deep: [1] }, null]);
    return out;
  }

  #keyOf(field: protobuf.Field): string {
    const r = this.#rng.next();
    return r < 0.7 ? field.jsonName : r < 0.85 ? field.protoName : field.name;
  }

  #fieldValue(field: protobuf.Field, depth: number): unknown {
    const rng = this.#rng;
    if (field.map) {
      if (this.#wrong()) return rng.pick([[], 'x', 5]);
      const out: Record<string, unknown> = {};
      const keyType = (field as unknown as protobuf.MapField).keyType;
      for (let i = rng.int(4); i > 0; i--) out[this.#mapKey(keyType)] = this.#singular(field, depth, true);
      return out;
    }
    if (field.repeated) {
      if (this.#wrong()) return rng.pick(['x', 5, {}]);
      const out: unknown[] = [];
      for (let i = rng.int(4); i > 0; i--) out.push(this.#mode === 'dirty' && rng.chance(0.03) ? null : this.#singular(field, depth, true));
      return out;
    }
    return this.#singular(field, depth, false);
  }

  #mapKey(keyType: string): string {
    const rng = this.#rng;
    if (keyType === 'string') return rng.pick(['a', 'b', 'key', 'é', '', 'constructor', 'toString', '😀']);
    if (keyType === 'bool') return this.#wrong() ? rng.pick(['yes', '1', 'TRUE']) : rng.pick(['true', 'false']);
    if (this.#wrong()) return rng.pick(['abc', '1.5', '+1', '99999999999999999999999', '0x10', ' 1']);
    const unsigned = keyType.startsWith('uint') || keyType.startsWith('fixed');
    const long = keyType.endsWith('64');
    return rng.pick([
      '0',
      '7',
      '007',
      '12345678',
      String(rng.int(1000)),
      unsigned ? (long ? '18446744073709551615' : '4294967295') : '-5',
      unsigned ? '1' : long ? '-9223372036854775808' : '-2147483648',
      long ? '9007199254740993' : '2147483647',
    ]);
  }

  #singular(field: protobuf.Field, depth: number, element: boolean): unknown {
    const resolved = field.resolvedType;
    if (resolved instanceof protobuf.Type) return this.message(resolved, depth + 1);
    if (resolved instanceof protobuf.Enum) return this.#enum(resolved, element);
    return this.#scalar(field.type);
  }

  #enum(type: protobuf.Enum, element: boolean): unknown {
    const rng = this.#rng;
    if (type.fullName === '.google.protobuf.NullValue') return rng.pick(element ? [null, 'NULL_VALUE', 0] : ['NULL_VALUE', 0]);
    if (this.#wrong()) return rng.pick(['NOT_A_VALUE', 1.5, '1', true, 99]);
    const names = Object.keys(type.values);
    return rng.chance(0.6) ? rng.pick(names) : rng.chance(0.8) ? type.values[rng.pick(names)] : rng.pick([42, -3]);
  }

  #scalar(type: string): unknown {
    const rng = this.#rng;
    const wrong = this.#wrong();
    switch (type) {
      case 'int32':
      case 'sint32':
      case 'sfixed32':
        return wrong
          ? rng.pick([1.5, 'abc', 2147483648, ' 5', '', true, '0x10', '2147483648'])
          : rng.pick([0, 1, -1, 2147483647, -2147483648, '5', '+5', '1e2', '5.0', '-0', rng.int(100000) - 50000]);
      case 'uint32':
      case 'fixed32':
        return wrong ? rng.pick([-1, '4294967296', 1.5, 'x']) : rng.pick([0, 1, 4294967295, '4294967295', '1e3', rng.int(100000)]);
      case 'int64':
      case 'sint64':
      case 'sfixed64':
        return wrong
          ? rng.pick(['9223372036854775808', 2 ** 63, '1.5', 'abc', '', true, '123456789012345678901'])
          : rng.pick([
              0,
              12,
              '0',
              '007',
              '-0',
              '9223372036854775807',
              '-9223372036854775808',
              '9007199254740993',
              '1e3',
              String(rng.int(1e9)),
            ]);
      case 'uint64':
      case 'fixed64':
        return wrong
          ? rng.pick(['-1', '18446744073709551616', -1, 'x'])
          : rng.pick([0, 7, '18446744073709551615', '12345678901', '0012', String(rng.int(1e9))]);
      case 'float':
        return wrong
          ? rng.pick(['nan', 3.5e38, '3.5e38', '', ' 1', 'x', true])
          : rng.pick([0, -0, 1.5, 1.1, 0.1, 3.4e38, -3.4e38, 1e-45, 'NaN', 'Infinity', '-Infinity', '2.5', '1e3']);
      case 'double':
        return wrong
          ? rng.pick(['nan', 'inf', '', 'x', false, '1e400'])
          : rng.pick([0, -0, 1.5, 0.1, 1e300, -1e-300, 'NaN', 'Infinity', '-Infinity', '2.5', 3.4e38]);
      case 'bool':
        return wrong ? rng.pick(['true', 1, 0, 'false']) : rng.pick([true, false]);
      case 'string':
        return wrong
          ? rng.pick([5, true, '\ud800', 'a\udc00b', {}])
          : rng.pick(['', 'a', 'hello world', 'é', '😀', 'a_b', 'line\nbreak', 'NaN']);
      case 'bytes':
        return wrong
          ? rng.pick(['A', '!!!!', 'A===', 5, 'AQI?'])
          : rng.pick(['', 'AQI=', 'AQI', '-_8=', '-_8', '+/8=', 'AAAA', base64(rng)]);
      default:
        throw new Error(`unknown scalar type ${type}`);
    }
  }

  /** A well-known type's own JSON form; undefined for a type that is written as an object of its fields. */
  #wellKnown(type: protobuf.Type, depth: number): { value: unknown } | undefined {
    const rng = this.#rng;
    const wrong = this.#wrong();
    switch (type.fullName) {
      case '.google.protobuf.Timestamp':
        return {
          value: wrong
            ? rng.pick([
                '2024-02-30T00:00:00Z',
                '2024-01-02 03:04:05Z',
                '2024-01-02T03:04:05',
                5,
                '0000-01-01T00:00:00Z',
                '9999-12-31T23:59:59-01:00',
              ])
            : timestamp(rng),
        };
      case '.google.protobuf.Duration':
        return {
          value: wrong
            ? rng.pick(['1.5', '1.1234567890s', '315576000001s', 5, '-s', '1 s'])
            : rng.pick([
                '0s',
                '1s',
                '1.5s',
                '-3s',
                '-0.5s',
                '0.000000001s',
                '315576000000.999999999s',
                `${rng.int(100000)}.${rng.int(1000)}s`,
              ]),
        };
      case '.google.protobuf.FieldMask':
        return { value: wrong ? rng.pick(['a_b', 5, 'A_B,c']) : rng.pick(['', 'a', 'a.b,cD', 'fooBar.bazQux', 'Foo']) };
      case '.google.protobuf.Struct':
        return { value: wrong ? rng.pick([[1], 5, 'x']) : jsonObject(rng, depth) };
      case '.google.protobuf.Value':
        return { value: wrong ? rng.pick([Number.POSITIVE_INFINITY, Number.NaN]) : jsonValue(rng, depth) };
      case '.google.protobuf.ListValue':
        return { value: wrong ? rng.pick([{}, 5]) : jsonArray(rng, depth) };
      case '.google.protobuf.Any':
        return { value: this.#any(depth, wrong) };
      default: {
        const scalar = WRAPPERS[type.fullName];
        return scalar === undefined ? undefined : { value: this.#scalar(scalar) };
      }
    }
  }

  #any(depth: number, wrong: boolean): unknown {
    const rng = this.#rng;
    if (wrong) return rng.pick([{ '@type': 'type.googleapis.com/no.Such' }, { '@type': 5 }, 'x', [], { '@type': 'a/k.Nope' }]);
    if (depth >= MAX_DEPTH || this.#packable.length === 0 || rng.chance(0.1)) return {};
    const type = rng.pick(this.#packable);
    const name = type.fullName.slice(1);
    const url = rng.pick([`type.googleapis.com/${name}`, `example.com/x/${name}`, name, `.${name}`]);
    const body = this.message(type, depth + 1);
    if (body === null || typeof body !== 'object' || Array.isArray(body) || isOwnJsonForm(type)) return { '@type': url, value: body };
    return { '@type': url, ...body };
  }
}

function isOwnJsonForm(type: protobuf.Type): boolean {
  return (
    type.fullName === '.google.protobuf.Any' ||
    type.fullName in WRAPPERS ||
    /^\.google\.protobuf\.(Timestamp|Duration|FieldMask|Struct|Value|ListValue)$/.test(type.fullName)
  );
}

function base64(rng: Rng): string {
  const bytes = Array.from({ length: rng.int(7) }, () => rng.int(256));
  const text = Buffer.from(bytes).toString('base64');
  return rng.chance(0.3) ? text.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_') : text;
}

function timestamp(rng: Rng): string {
  const pad = (n: number, w: number) => String(n).padStart(w, '0');
  const year = rng.pick([1, 1969, 1970, 2024, 9999, 1 + rng.int(9998)]);
  const frac = rng.pick(['', '.5', '.123', '.123456', '.123456789', '.000000001']);
  const offset = rng.pick(['Z', 'Z', '+01:00', '-05:30', '+00:00']);
  const hour = year === 9999 ? rng.int(20) : rng.int(24);
  const date = `${pad(year, 4)}-${pad(1 + rng.int(12), 2)}-${pad(1 + rng.int(28), 2)}`;
  const time = `${pad(hour, 2)}:${pad(rng.int(60), 2)}:${pad(rng.int(60), 2)}`;
  // Year 1 with an offset east of UTC would fall before the first instant a Timestamp holds.
  return `${date}T${time}${frac}${year === 1 ? 'Z' : offset}`;
}

function jsonValue(rng: Rng, depth: number): unknown {
  switch (rng.int(depth >= MAX_DEPTH ? 4 : 6)) {
    case 0:
      return null;
    case 1:
      return rng.pick([0, 1.5, -2, 1e21]);
    case 2:
      return rng.pick(['', 'x', '😀']);
    case 3:
      return rng.chance(0.5);
    case 4:
      return jsonObject(rng, depth + 1);
    default:
      return jsonArray(rng, depth + 1);
  }
}

function jsonObject(rng: Rng, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = rng.int(3); i > 0; i--) out[rng.pick(['a', 'b', 'c d', ''])] = jsonValue(rng, depth);
  return out;
}

function jsonArray(rng: Rng, depth: number): unknown[] {
  return Array.from({ length: rng.int(3) }, () => jsonValue(rng, depth));
}

/** Every message type under a root, in declaration order. */
export function allTypes(ns: protobuf.NamespaceBase): protobuf.Type[] {
  const out: protobuf.Type[] = [];
  for (const nested of ns.nestedArray) {
    if (nested instanceof protobuf.Type) out.push(nested);
    if (nested instanceof protobuf.Namespace) out.push(...allTypes(nested));
  }
  return out;
}

function reachesRequired(type: protobuf.Type, seen: Set<protobuf.Type>): boolean {
  if (seen.has(type)) return false;
  seen.add(type);
  return type.fieldsArray.some((raw) => {
    const field = raw.resolve();
    return field.required || (field.resolvedType instanceof protobuf.Type && reachesRequired(field.resolvedType, seen));
  });
}

/**
 * One way a handler gets a message wrong before it is written, applied to a copy of a valid Loom
 * message of `type` (or to a nested one): two members of a oneof, a required field dropped, a map
 * key or 64-bit integer that is no number, a value of another type.
 */
export function mutateLoom(type: protobuf.Type, message: Record<string, unknown>, rng: Rng): void {
  const fields = type.fieldsArray.map((f) => f.resolve());
  if (fields.length === 0) return;
  // Half the time, go down into a nested message that is set.
  const nested = fields.filter(
    (f) =>
      f.resolvedType instanceof protobuf.Type &&
      !f.resolvedType.fullName.startsWith('.google.protobuf.') &&
      !f.map &&
      !f.repeated &&
      message[f.name] != null,
  );
  if (nested.length > 0 && rng.chance(0.5)) {
    const field = rng.pick(nested);
    mutateLoom(field.resolvedType as protobuf.Type, message[field.name] as Record<string, unknown>, rng);
    return;
  }
  const field = rng.pick(fields);
  const name = field.name;
  const oneof = field.partOf && field.partOf.oneof.length > 1 ? field.partOf : undefined;
  const r = rng.int(10);
  if (oneof && r < 3) {
    for (const member of oneof.oneof) if (message[member] == null) message[member] = loomValueOf(type.fields[member]!.resolve(), rng);
    return;
  }
  if (field.required && r < 5) {
    delete message[name];
    return;
  }
  if (field.map) {
    const map = (message[name] ?? {}) as Record<string, unknown>;
    const key = rng.pick(['abc', '007', '-0', '9223372036854775808', 'yes', 'true', '1.5', '18446744073709551616', '12345678']);
    map[key] = loomValueOf(field, rng);
    message[name] = map;
    return;
  }
  if (field.repeated) {
    message[name] = rng.pick([[], [loomValueOf(field, rng)], [loomValueOf(field, rng), loomValueOf(field, rng)]]);
    return;
  }
  message[name] = rng.chance(0.15) ? rng.pick([undefined, null]) : loomValueOf(field, rng);
}

/** A Loom value of the field's type, or of a type near it (what a handler might put there). */
function loomValueOf(field: protobuf.Field, rng: Rng): unknown {
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Enum) return rng.pick([0, 1, 99, Object.keys(resolved.values)[0], '1']);
  if (resolved instanceof protobuf.Type) {
    switch (resolved.fullName) {
      case '.google.protobuf.Timestamp':
        return rng.pick(['2024-01-02T03:04:05Z', 'not a timestamp', 5]);
      case '.google.protobuf.Duration':
        return rng.pick(['1.5s', '1.5']);
      case '.google.protobuf.Struct':
        return rng.pick([{ a: [1, null] }, [1]]);
      case '.google.protobuf.Value':
        return rng.pick([null, 1, 'x', { a: true }]);
      default:
        if (resolved.fullName in WRAPPERS) return rng.pick([5, '5', 'x', true]);
        return {};
    }
  }
  switch (field.type) {
    case 'int64':
    case 'uint64':
    case 'sint64':
    case 'fixed64':
    case 'sfixed64':
      return rng.pick(['0', 5, '007', '1.5', '99999999999999999999', '-1', '18446744073709551616', '9223372036854775808', -0, 12n]);
    case 'int32':
    case 'uint32':
    case 'sint32':
    case 'fixed32':
    case 'sfixed32':
      return rng.pick([0, 5, '5', 'abc', -1, 1.5]);
    case 'float':
    case 'double':
      return rng.pick([0, -0, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '1.5']);
    case 'bool':
      return rng.pick([true, false, 'true', 0]);
    case 'string':
      return rng.pick(['', 'x', 5]);
    case 'bytes':
      return rng.pick([new Uint8Array([1, 2, 3]), new Uint8Array(0), [1, 2], Buffer.from([9])]);
    default:
      return 0;
  }
}
