/**
 * @module
 * Base64 for proto3 JSON `bytes`, as protobufjs spells and reads it: written in the standard
 * alphabet with padding; read in the standard or the URL-safe alphabet, padded or not. Runs
 * everywhere (no `Buffer`, no `atob`, which refuses the URL-safe alphabet).
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const PAD = 61; // '='

/** Sextet by character code; `-` and `_` (URL-safe) read as `+` and `/`. */
const SEXTETS: readonly (number | undefined)[] = (() => {
  const table: (number | undefined)[] = new Array(123);
  for (let i = 0; i < ALPHABET.length; i++) table[ALPHABET.charCodeAt(i)] = i;
  table[45] = 62;
  table[95] = 63;
  return table;
})();

/**
 * `bytes` in standard base64 with padding. Indexes `bytes` as an array-like of numbers, as protobufjs
 * does, so that a plain number array encodes as the bytes it lists.
 *
 * @example
 * encodeBase64(new Uint8Array([1, 2])); // 'AQI='
 */
export function encodeBase64(bytes: ArrayLike<number>): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += `${ALPHABET[(n >> 18) & 63]!}${ALPHABET[(n >> 12) & 63]!}==`;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += `${ALPHABET[(n >> 18) & 63]!}${ALPHABET[(n >> 12) & 63]!}${ALPHABET[(n >> 6) & 63]!}=`;
  }
  return out;
}

/**
 * The bytes of base64 text in either alphabet, padding optional. Reading stops at padding once a
 * byte is complete (what follows is ignored, as protobufjs ignores it); any other character, or a
 * lone trailing character, is an `Error('invalid encoding')`.
 *
 * @example
 * decodeBase64('-_8'); // Uint8Array [251, 255]
 */
export function decodeBase64(text: string): Uint8Array {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === PAD) end--;
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let length = 0;
  let phase = 0;
  let carry = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === PAD && phase > 1) break;
    const sextet = SEXTETS[code];
    if (sextet === undefined) throw new Error('invalid encoding');
    switch (phase) {
      case 0:
        carry = sextet;
        phase = 1;
        break;
      case 1:
        out[length++] = (carry << 2) | ((sextet & 48) >> 4);
        carry = sextet;
        phase = 2;
        break;
      case 2:
        out[length++] = ((carry & 15) << 4) | ((sextet & 60) >> 2);
        carry = sextet;
        phase = 3;
        break;
      default:
        out[length++] = ((carry & 3) << 6) | sextet;
        phase = 0;
        break;
    }
  }
  if (phase === 1) throw new Error('invalid encoding');
  // Shorter than the padding-less length only when padding came early ("AQ==AAAA"); protobufjs
  // hands out the rest of its buffer uninitialised there, this gives the bytes that were read.
  return length === out.length ? out : out.slice(0, length);
}
