import { describe, expect, it } from 'vitest';
import {
  canonicalTimeZone,
  endOfDayInOwnOffset,
  endOfDayInZone,
  formatTimestamp,
  isRenderableYear,
  isZeroOrEpoch,
  isZeroTime,
  parseRfc3339,
  processTimeZone,
} from './time.js';

describe('parseRfc3339', () => {
  it('reads the instant, the date as written and the offset', () => {
    expect(parseRfc3339('2025-01-31T10:00:00+05:00')).toEqual({ unix: 1738299600, date: '2025-01-31', offset: '+05:00' });
    expect(parseRfc3339('2025-01-31T10:00:00.123z')).toEqual({ unix: 1738317600, date: '2025-01-31', offset: 'Z' });
    expect(parseRfc3339('0001-01-01T00:00:00Z')!.unix).toBe(-62135596800);
  });

  it.each([
    '2025-02-30T00:00:00Z',
    '2025-01-01T24:00:00Z',
    '2025-01-01',
    '2025-01-01T00:00:00',
    'yesterday',
    '',
    '2025-01-01T00:00:00+5:00',
    '2025-01-01T00:00:00+99:99',
    '2025-01-01T00:00:00+24:00',
    '2025-01-01T00:00:00-05:60',
  ])('rejects %j', (text) => expect(parseRfc3339(text)).toBeUndefined());
});

describe('offsets at the edges', () => {
  it('accepts the largest real offsets', () => {
    expect(parseRfc3339('2025-01-01T00:00:00+23:59')!.unix).toBe(Date.UTC(2024, 11, 31, 0, 1) / 1000);
    expect(parseRfc3339('2025-01-01T00:00:00-23:59')!.unix).toBe(Date.UTC(2025, 0, 1, 23, 59) / 1000);
  });
});

describe('deadlines', () => {
  const t = parseRfc3339('2025-01-31T22:00:00-08:00')!;
  it("ends the day in the value's own offset (edit, create)", () => {
    expect(formatTimestamp(endOfDayInOwnOffset(t), 'UTC')).toBe('2025-02-01T07:59:59Z');
  });
  it('ends the day as written in the server zone (deadline endpoint)', () => {
    expect(formatTimestamp(endOfDayInZone(t, 'UTC'), 'UTC')).toBe('2025-01-31T23:59:59Z');
    expect(formatTimestamp(endOfDayInZone(t, 'Europe/Berlin'), 'Europe/Berlin')).toBe('2025-01-31T23:59:59+01:00');
    // Across a DST change (New York switched to EDT on 2025-03-09).
    expect(formatTimestamp(endOfDayInZone(parseRfc3339('2025-03-09T01:00:00Z')!, 'America/New_York'), 'America/New_York')).toBe(
      '2025-03-09T23:59:59-04:00',
    );
  });
  it('recognises the zero time and the epoch', () => {
    expect(isZeroTime(parseRfc3339('0001-01-01T00:00:00Z')!)).toBe(true);
    expect(isZeroOrEpoch(parseRfc3339('1970-01-01T00:00:00Z')!)).toBe(true);
    expect(isZeroOrEpoch(parseRfc3339('1970-01-01T00:00:01Z')!)).toBe(false);
  });
});

describe('formatTimestamp', () => {
  it('prints Z for UTC and the offset for other zones, without fractions', () => {
    expect(formatTimestamp(0, 'UTC')).toBe('1970-01-01T00:00:00Z');
    expect(formatTimestamp(1700000000, 'Asia/Kolkata')).toBe('2023-11-15T03:43:20+05:30');
    expect(formatTimestamp(-62135596800, 'UTC')).toBe('0001-01-01T00:00:00Z');
  });

  it('prints UTC through its fast path exactly as through the general one, at the edges too', () => {
    // Day boundaries, leap days and the century rules (1900 and 2100 are not leap years, 2000 is).
    const samples = [
      -62135596800, -62135596801, -2208988800, -2203977601, -1, 0, 59, 951782400, 951868799, 1700000000, 4107456000, 4107542399, 4107542400,
      253370764800, 253402300799, 253402300800, 253402387200,
    ];
    // The layout built field by field, as the general path does.
    const reference = (unix: number) => {
      const d = new Date(unix * 1000);
      const p = (n: number, w = 2) => String(n).padStart(w, '0');
      const date = `${p(d.getUTCFullYear(), 4)}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}`;
      return `${date}T${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}Z`;
    };
    for (const unix of samples) expect(formatTimestamp(unix, 'UTC')).toBe(reference(unix));
    expect(formatTimestamp(253402300799, 'UTC')).toBe('9999-12-31T23:59:59Z');
    expect(formatTimestamp(253402300800, 'UTC')).toBe('10000-01-01T00:00:00Z');
  });
});

describe('years outside 1000–9999', () => {
  it('keeps years 0–99 literal in zones other than UTC (Date.UTC would read them as 1900–1999)', () => {
    const berlin = endOfDayInZone(parseRfc3339('0050-06-15T10:00:00Z')!, 'Europe/Berlin');
    // Local mean time of Berlin, +00:53:28.
    expect(berlin).toBe(parseRfc3339('0050-06-15T23:59:59Z')!.unix - 3208);
    expect(formatTimestamp(berlin, 'Europe/Berlin')).toBe('0050-06-15T23:59:59+00:53');
    expect(formatTimestamp(endOfDayInZone(parseRfc3339('0001-01-01T10:00:00Z')!, 'Asia/Tokyo'), 'Asia/Tokyo')).toBe(
      '0001-01-01T23:59:59+09:18',
    );
    // Year 0 is "1 BC" to the formatter, which must not be read as year 1.
    expect(formatTimestamp(parseRfc3339('0000-06-15T12:00:00Z')!.unix, 'America/New_York')).toBe('0000-06-15T07:03:58-04:56');
  });

  it('tells which instants render with a 4-digit year in a zone', () => {
    const last = parseRfc3339('9999-12-31T23:59:59Z')!.unix;
    expect(isRenderableYear(last, 'UTC')).toBe(true);
    expect(isRenderableYear(last + 1, 'UTC')).toBe(false);
    expect(isRenderableYear(last, 'Asia/Kolkata')).toBe(false);
    expect(isRenderableYear(last, 'America/New_York')).toBe(true);
    const first = parseRfc3339('0001-01-01T00:00:00Z')!.unix;
    expect(isRenderableYear(first, 'UTC')).toBe(true);
    expect(isRenderableYear(first - 1, 'UTC')).toBe(false);
    expect(isRenderableYear(first, 'America/New_York')).toBe(false);
  });
});

describe('time zones', () => {
  it('renders Z for a zero offset in any zone, as Go does', () => {
    expect(formatTimestamp(1736935200, 'Europe/London')).toBe('2025-01-15T10:00:00Z');
    expect(formatTimestamp(1752573600, 'Europe/London')).toBe('2025-07-15T11:00:00+01:00');
  });

  it('spells zones canonically and refuses unknown ones', () => {
    expect(canonicalTimeZone('Etc/UTC')).toBe('UTC');
    expect(canonicalTimeZone('GMT')).toBe('UTC');
    expect(canonicalTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(() => canonicalTimeZone('Mars/Olympus')).toThrow(RangeError);
  });

  it("reads the process's zone from TZ", () => {
    const saved = process.env.TZ;
    try {
      process.env.TZ = 'Asia/Kolkata';
      expect(processTimeZone()).toBe('Asia/Kolkata');
      process.env.TZ = 'Etc/UTC';
      expect(processTimeZone()).toBe('UTC');
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });
});
