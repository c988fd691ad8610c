/**
 * @module
 * Time as Gitea renders and interprets it: RFC 3339 without fractional seconds in the
 * server zone, date parsing for `since`/`before`, and the "23:59:59 of the given date"
 * deadline rules (in the value's own offset, or in the server zone).
 */

/** Gitea's zero time (`time.Time{}`), which several operations read as "no value". */
export const ZERO_TIME = '0001-01-01T00:00:00Z';

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** A parsed RFC 3339 timestamp: the instant plus the calendar date and offset as written. */
export interface ParsedTimestamp {
  /** Unix seconds (fractions dropped). */
  readonly unix: number;
  /** `YYYY-MM-DD` as written, i.e. in the value's own offset. */
  readonly date: string;
  /** `Z` or `±hh:mm` as written. */
  readonly offset: string;
}

/**
 * Parses an RFC 3339 timestamp strictly (calendar-checked), or returns `undefined`.
 *
 * @example
 * parseRfc3339('2025-01-31T10:00:00+05:00'); // { unix: 1738299600, date: '2025-01-31', offset: '+05:00' }
 */
export function parseRfc3339(text: string): ParsedTimestamp | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, , off] = m as unknown as string[];
  const offset = off!.toUpperCase() === 'Z' ? 'Z' : off!;
  // An offset is a time of day (RFC 3339 `time-numoffset`): `+99:99` names no zone.
  if (offset !== 'Z' && (Number(offset.slice(1, 3)) > 23 || Number(offset.slice(4, 6)) > 59)) return undefined;
  const fields = [Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s)] as const;
  // setUTCFullYear keeps years 0–99 literal (Date.UTC would map them onto 1900–1999).
  const check = new Date(Date.UTC(2000, 0, 1));
  check.setUTCFullYear(fields[0], fields[1] - 1, fields[2]);
  check.setUTCHours(fields[3], fields[4], fields[5]);
  // Reject 2025-02-30 and 25:00 instead of letting Date roll them over.
  if (
    check.getUTCFullYear() !== fields[0] ||
    check.getUTCMonth() !== fields[1] - 1 ||
    check.getUTCDate() !== fields[2] ||
    fields[3] > 23 ||
    fields[4] > 59 ||
    fields[5] > 59
  ) {
    return undefined;
  }
  const offsetMinutes = offset === 'Z' ? 0 : (offset[0] === '-' ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
  return { unix: Math.floor(check.getTime() / 1000) - offsetMinutes * 60, date: `${y}-${mo}-${d}`, offset };
}

/** Unix seconds of Go's zero time, 0001-01-01T00:00:00Z. */
const ZERO_UNIX = -62135596800;

/** True for Go's zero time (`time.Time.IsZero`), which PATCH reads as "clear the deadline". */
export function isZeroTime(parsed: ParsedTimestamp): boolean {
  return parsed.unix === ZERO_UNIX;
}

/** True for the zero time or the Unix epoch, which the deadline endpoint reads as "remove". */
export function isZeroOrEpoch(parsed: ParsedTimestamp): boolean {
  return parsed.unix === ZERO_UNIX || parsed.unix === 0;
}

/**
 * 23:59:59 of the value's calendar date in the value's own offset (PATCH and create).
 *
 * @example
 * endOfDayInOwnOffset(parseRfc3339('2025-01-31T10:00:00+05:00')!); // unix of 2025-01-31T23:59:59+05:00
 */
export function endOfDayInOwnOffset(parsed: ParsedTimestamp): number {
  return parseRfc3339(`${parsed.date}T23:59:59${parsed.offset}`)!.unix;
}

/**
 * 23:59:59 of the value's calendar date (as written) in the IANA zone `timeZone` (the deadline endpoint).
 *
 * @example
 * endOfDayInZone(parseRfc3339('2025-01-31T10:00:00+05:00')!, 'UTC'); // unix of 2025-01-31T23:59:59Z
 */
export function endOfDayInZone(parsed: ParsedTimestamp, timeZone: string): number {
  const naive = parseRfc3339(`${parsed.date}T23:59:59Z`)!.unix;
  // Two passes settle the offset also next to a DST change.
  let guess = naive - zoneOffsetSeconds(naive, timeZone);
  guess = naive - zoneOffsetSeconds(guess, timeZone);
  return guess;
}

/**
 * Renders Unix seconds as RFC 3339 in `timeZone`: `Z` where the zone's offset is zero, `±hh:mm`
 * otherwise (Go's `Z07:00`: London renders `Z` in winter, `+01:00` in summer).
 *
 * @example
 * formatTimestamp(0, 'UTC'); // '1970-01-01T00:00:00Z'
 */
export function formatTimestamp(unix: number, timeZone: string): string {
  if (timeZone === 'UTC') return `${dateTime(unix)}Z`;
  const offset = zoneOffsetSeconds(unix, timeZone);
  if (offset === 0) return `${dateTime(unix)}Z`;
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${dateTime(unix + offset)}${sign}${pad(Math.floor(abs / 3600))}:${pad(Math.floor((abs % 3600) / 60))}`;
}

/**
 * `YYYY-MM-DDTHH:MM:SS` of a Unix time read as UTC. Every issue renders several timestamps, so
 * whole seconds within years 1–9999 are computed directly (Hinnant's `civil_from_days`), about
 * three times faster than through `Date` and `toISOString`; anything else goes through `Date`.
 */
function dateTime(seconds: number): string {
  if (!Number.isInteger(seconds) || seconds < ISO_MIN_UNIX || seconds > ISO_MAX_UNIX) {
    const d = new Date(seconds * 1000);
    const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
    return `${date}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  }
  const days = Math.floor(seconds / 86_400);
  const inDay = seconds - days * 86_400;
  // Days since 0000-03-01, in 400-year eras; March-based years put the leap day last.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1_460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(inDay / 3_600);
  const minutes = Math.floor((inDay % 3_600) / 60);
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hours)}:${pad(minutes)}:${pad(inDay % 60)}`;
}

const ISO_MIN_UNIX = -62135596800;
const ISO_MAX_UNIX = 253402300799;

/**
 * Whether `unix` renders in `timeZone` with a year from 0001 to 9999. An RFC 3339 year has four
 * digits: Go's `time.Time.MarshalJSON` refuses years past 9999 (so Gitea cannot encode an answer
 * holding one), and `10000-01-01T…` parses in neither JS nor Go clients. Year 0000 (1 BC) would
 * render, but lies before Go's zero time 0001-01-01, the value the API itself reads as "no
 * deadline", so no meaningful deadline lies there. Deadlines are kept within these years of the
 * zone every later answer renders them in.
 *
 * @example
 * isRenderableYear(253402300799, 'UTC');              // true:  9999-12-31T23:59:59Z
 * isRenderableYear(253402300799, 'Asia/Kolkata');     // false: 10000-01-01T05:29:59+05:30
 */
export function isRenderableYear(unix: number, timeZone: string): boolean {
  const local = unix + (timeZone === 'UTC' ? 0 : zoneOffsetSeconds(unix, timeZone));
  return local >= ISO_MIN_UNIX && local <= ISO_MAX_UNIX;
}

/**
 * An IANA time zone as the service keeps it: the aliases of UTC (`Etc/UTC`, `GMT`, `Zulu`) as
 * `UTC`, which takes the fast path of {@link formatTimestamp}; others in their proper case
 * (`europe/berlin` → `Europe/Berlin`) but otherwise as named (ICU would turn `Asia/Kolkata` into
 * its older alias `Asia/Calcutta`). A `RangeError` for a zone the runtime does not know.
 *
 * @example
 * canonicalTimeZone('Etc/UTC'); // 'UTC'
 */
export function canonicalTimeZone(timeZone: string): string {
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  return resolved === 'UTC' || resolved.toLowerCase() === timeZone.toLowerCase() ? resolved : timeZone;
}

/**
 * The process's own time zone (`TZ`, else the system's), canonical (see {@link canonicalTimeZone});
 * `UTC` when the runtime cannot tell.
 *
 * @example
 * processTimeZone(); // 'Europe/Berlin' under TZ=Europe/Berlin
 */
export function processTimeZone(): string {
  // TZ as named when it names a zone (the runtime's own reading would say `Asia/Calcutta` for
  // `Asia/Kolkata`); a leading `:` is the C library's "zone file" marker.
  const named = process.env.TZ?.replace(/^:/, '');
  for (const zone of [named, Intl.DateTimeFormat().resolvedOptions().timeZone]) {
    if (!zone) continue;
    try {
      return canonicalTimeZone(zone);
    } catch {
      // Not an IANA name (a POSIX rule such as `EST5EDT,M3.2.0,M11.1.0`): ask the runtime.
    }
  }
  return 'UTC';
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * Offset of `timeZone` from UTC at the instant `unix`, in seconds: the zone's wall-clock reading
 * of the instant, read back as if it were UTC, minus the instant. Valid for every year: the era
 * turns the formatter's year `1 BC` back into year 0, and the reading is rebuilt with
 * `setUTCFullYear` (`Date.UTC` would map years 0–99 onto 1900–1999).
 */
function zoneOffsetSeconds(unix: number, timeZone: string): number {
  let fmt = formatters.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, fmt);
  }
  let year = 0;
  let bc = false;
  const wall = new Date(0);
  const fields = { month: 1, day: 1, hour: 0, minute: 0, second: 0 };
  for (const part of fmt.formatToParts(new Date(unix * 1000))) {
    if (part.type === 'year') year = Number(part.value);
    else if (part.type === 'era') bc = part.value === 'BC';
    else if (part.type in fields) fields[part.type as keyof typeof fields] = Number(part.value);
  }
  wall.setUTCFullYear(bc ? 1 - year : year, fields.month - 1, fields.day);
  wall.setUTCHours(fields.hour, fields.minute, fields.second, 0);
  return Math.round(wall.getTime() / 1000 - unix);
}
