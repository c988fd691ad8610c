/**
 * @module
 * 64-bit integers as decimal strings, converted as protobufjs converts them through long.js, so
 * that the JSON codec writes the same digits the binary format puts on the wire: a decimal past
 * the type's range wraps around (`Long.fromString`), a number is truncated and clamped
 * (`Long.fromNumber`).
 */

const TWO_POW_63 = 2 ** 63;
const TWO_POW_64 = 2 ** 64;

/**
 * A decimal integer (`/^-?\d+$/`, checked by the caller) as the 64-bit value it wraps to.
 *
 * @example
 * wrapLong('18446744073709551616', true); // '0'
 * wrapLong('-1', true); // '18446744073709551615'
 */
export function wrapLong(decimal: string, unsigned: boolean): string {
  const n = BigInt(decimal);
  return (unsigned ? BigInt.asUintN(64, n) : BigInt.asIntN(64, n)).toString();
}

/**
 * A number as a 64-bit decimal: the fraction dropped, NaN as 0, values past the range clamped to it.
 *
 * @example
 * longFromNumber(9007199254740993, false); // '9007199254740992' (the number it is as a double)
 */
export function longFromNumber(value: number, unsigned: boolean): string {
  if (Number.isNaN(value)) return '0';
  if (unsigned) {
    if (value < 0) return '0';
    if (value >= TWO_POW_64) return '18446744073709551615';
  } else {
    if (value <= -TWO_POW_63) return '-9223372036854775808';
    if (value + 1 >= TWO_POW_63) return '9223372036854775807';
  }
  return BigInt(Math.trunc(value)).toString();
}
