import { describe, expect, it } from 'vitest';
import {
  formatZoned,
  isTimeZone,
  zonedDay,
  zonedDaysBefore,
  zonedInstant,
  zonedMonthKey,
  zonedMonthStart,
  zonedMonthsBefore,
} from './time-zone.ts';

const PARIS = 'Europe/Paris';
const iso = (d: Date) => d.toISOString();

describe('the installation’s clock', () => {
  it('knows IANA zone names and refuses offsets, abbreviations and typos', () => {
    for (const zone of ['Europe/Paris', 'America/Montreal', 'America/Argentina/Buenos_Aires', 'Etc/GMT+2', 'UTC']) {
      expect(isTimeZone(zone), zone).toBe(true);
    }
    for (const bad of ['', 'Paris', '+01:00', 'Europe/Pariss', 'Mars/Olympus', "Europe/Paris'; --"])
      expect(isTimeZone(bad), bad).toBe(false);
  });

  it('puts 23:30Z on 31 October in November in Paris, and finds the month’s first instant in winter and in summer', () => {
    const late = new Date('2026-10-31T23:30:00Z');
    expect(zonedMonthKey(late, PARIS)).toBe('2026-11-01');
    expect(zonedMonthKey(late, 'UTC')).toBe('2026-10-01');
    expect(iso(zonedMonthStart(late, PARIS))).toBe('2026-10-31T23:00:00.000Z'); // UTC+1
    expect(iso(zonedMonthStart(new Date('2026-04-15T12:00:00Z'), PARIS))).toBe('2026-03-31T22:00:00.000Z'); // UTC+2
    expect(iso(zonedMonthStart(late, PARIS, -11))).toBe('2025-11-30T23:00:00.000Z');
    expect(zonedMonthKey(new Date('2026-01-10T00:00:00Z'), PARIS, -1)).toBe('2025-12-01');
  });

  it('reads a wall-clock time skipped in spring with the offset before, and one met twice in autumn as its first', () => {
    const at = (month: number, day: number, hour: number, minute: number) =>
      iso(zonedInstant({ year: 2026, month, day, hour, minute, second: 0, millisecond: 0 }, PARIS));
    expect(at(3, 29, 2, 30)).toBe('2026-03-29T01:30:00.000Z'); // 03:30 summer time
    expect(at(10, 25, 2, 30)).toBe('2026-10-25T00:30:00.000Z'); // the first 02:30, summer time
    expect(at(10, 25, 3, 30)).toBe('2026-10-25T02:30:00.000Z');
  });

  it('gives whole days of 23 and 25 hours around the changes of time', () => {
    const spring = zonedDay('2026-03-29', PARIS);
    expect([iso(spring.start), iso(spring.end)]).toEqual(['2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z']);
    const autumn = zonedDay('2026-10-25', PARIS);
    expect([iso(autumn.start), iso(autumn.end)]).toEqual(['2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z']);
  });

  it('counts back months and days at the same wall-clock time, clamped to a shorter month', () => {
    expect(iso(zonedMonthsBefore(new Date('2026-06-15T12:00:00Z'), 3, PARIS))).toBe('2026-03-15T13:00:00.000Z');
    expect(iso(zonedMonthsBefore(new Date('2026-05-31T08:00:00Z'), 3, PARIS))).toBe('2026-02-28T09:00:00.000Z');
    expect(iso(zonedDaysBefore(new Date('2026-06-15T12:00:00Z'), 90, PARIS))).toBe('2026-03-17T13:00:00.000Z');
  });

  it('writes an instant on the zone’s clock with its offset', () => {
    expect(formatZoned(new Date('2026-10-31T23:30:00Z'), PARIS)).toBe('2026-11-01T00:30:00+01:00');
    expect(formatZoned(new Date('2026-07-01T00:00:00Z'), 'America/New_York')).toBe('2026-06-30T20:00:00-04:00');
    expect(formatZoned(new Date('2026-07-01T00:00:00Z'), 'UTC')).toBe('2026-07-01T00:00:00+00:00');
  });
});
