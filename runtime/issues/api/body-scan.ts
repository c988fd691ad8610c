/**
 * @module
 * A scan of a JSON request body for arrays longer than the contract allows, made before the body
 * is parsed. `JSON.parse` and the schema's validator both walk every item, so an array of 250,000
 * numbers in a 500 kB body costs milliseconds of the event loop before its `maxItems` is even
 * looked at, and two clients sending such bodies back to back stall everyone else. The scan stops
 * at the first item past the limit: the body is refused having been read but never decoded or
 * parsed. It skips strings with `indexOf` and keeps its own stack, so neither a long text nor deep
 * nesting costs it more than a pass.
 */

/** A position in a JSON document: object keys and array indexes from the top. */
export type JsonPath = readonly (string | number)[];

interface Open {
  readonly array: boolean;
  /** Arrays: the items begun so far. Objects: unused. */
  items: number;
  /** Objects: the key whose value is being read. Arrays: unused. */
  key: string | number;
}

const UTF8 = new TextDecoder();
const ENCODER = new TextEncoder();

/**
 * The path of the first array in a JSON body holding more than `max` items, found as soon as item
 * `max + 1` begins; `undefined` when there is none, or when the body is not JSON (its parser will
 * say so, as it always did). The body is scanned as bytes — every byte JSON's structure uses is
 * ASCII, and no byte of a multi-byte UTF-8 character is — so a refused body is never decoded.
 *
 * @example
 * oversizedArray('{"title":"x","labels":[1,2,3]}', 2); // ['labels']
 * oversizedArray('{"labels":[1,2]}', 2); // undefined
 */
export function oversizedArray(body: Uint8Array | string, max: number): JsonPath | undefined {
  const bytes = typeof body === 'string' ? ENCODER.encode(body) : body;
  const length = bytes.length;
  const stack: Open[] = [];
  /** In an object, whether the next string is a key. */
  let expectKey = false;
  /** The overflowing array's path: the position each container around it is at. */
  const path = (): JsonPath => stack.slice(0, -1).map((open) => (open.array ? open.items - 1 : open.key));
  /** A value begins: counts as an item of the array it is in. */
  const beginValue = (): boolean => {
    const top = stack.at(-1);
    if (top?.array) {
      top.items++;
      if (top.items > max) return true;
    }
    return false;
  };
  for (let i = 0; i < length; i++) {
    const code = bytes[i]!;
    if (isWhitespace(code)) continue;
    switch (code) {
      case 0x22: {
        // A string: find its closing quote, one not escaped by an odd run of backslashes.
        let end = i;
        for (;;) {
          end = bytes.indexOf(0x22, end + 1);
          if (end === -1) return undefined;
          let backslashes = 0;
          while (bytes[end - 1 - backslashes] === 0x5c) backslashes++;
          if (backslashes % 2 === 0) break;
        }
        if (expectKey) {
          const raw = UTF8.decode(bytes.subarray(i + 1, end));
          stack.at(-1)!.key = raw.includes('\\') ? safeKey(`"${raw}"`) : raw;
          expectKey = false;
        } else if (beginValue()) {
          return path();
        }
        i = end;
        break;
      }
      case 0x7b: // {
      case 0x5b: // [
        if (beginValue()) return path();
        stack.push({ array: code === 0x5b, items: 0, key: '' });
        expectKey = code === 0x7b;
        break;
      case 0x7d: // }
      case 0x5d: // ]
        stack.pop();
        expectKey = false;
        break;
      case 0x2c: // ,
        expectKey = stack.at(-1)?.array === false;
        break;
      case 0x3a: // :
        break;
      default: {
        // A number, true, false or null: up to the next delimiter.
        if (beginValue()) return path();
        while (i + 1 < length && !isDelimiter(bytes[i + 1]!)) i++;
      }
    }
  }
  return undefined;
}

/** JSON's four whitespace bytes (space, line feed, carriage return, tab). */
export function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

function isDelimiter(code: number): boolean {
  return code === 0x2c || code === 0x5d || code === 0x7d || code === 0x3a || isWhitespace(code);
}

/** A quoted key with escapes, read as JSON reads it; as written when it is not valid JSON. */
function safeKey(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}
