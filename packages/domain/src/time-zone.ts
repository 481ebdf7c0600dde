/**
 * The installation's time zone (setting `TIME_ZONE`, an IANA name, `Europe/Paris` by default):
 * "this month", the months of the statistics, the days of the audit filters and the dates of the
 * CSV files are those of this zone, not UTC (docs/statistics.md, docs/admin.md).
 */
export const DEFAULT_TIME_ZONE = 'Europe/Paris';

/** An IANA zone name (`Region/City`, or `UTC`) that this runtime knows; offsets like `+01:00` are not zones. */
export function isTimeZone(name: string): boolean {
  if (name !== 'UTC' && !/^[A-Za-z]+(?:[/_-][A-Za-z0-9+-]+)+$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export interface WallTime {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock time of an instant in a zone. */
export function wallTime(date: Date, timeZone: string): WallTime {
  const parts = Object.fromEntries(
    formatterOf(timeZone)
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    millisecond: date.getUTCMilliseconds(),
  };
}

const asUtc = (t: WallTime) => Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second, t.millisecond);

/** How far the zone's clock is ahead of UTC at an instant, in milliseconds (3 600 000 in Paris in winter). */
export function zoneOffsetMs(date: Date, timeZone: string): number {
  return asUtc(wallTime(date, timeZone)) - date.getTime();
}

/**
 * The instant a wall-clock time of the zone names. A time skipped by a change to summer time
 * (02:30 on the last Sunday of March in Paris) is read with the offset before the change (03:30);
 * a time that occurs twice in autumn is its first occurrence.
 */
export function zonedInstant(time: WallTime, timeZone: string): Date {
  const local = asUtc(time);
  // The offsets in force a day before and a day after: a zone changes its offset at most once a day.
  const before = zoneOffsetMs(new Date(local - 86_400_000), timeZone);
  const after = zoneOffsetMs(new Date(local + 86_400_000), timeZone);
  const shown = [local - before, local - after].filter((t) => asUtc(wallTime(new Date(t), timeZone)) === local);
  return new Date(shown.length ? Math.min(...shown) : local - before);
}

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The first instant of the zone's month of `date`, `shift` months later (negative: earlier). */
export function zonedMonthStart(date: Date, timeZone: string, shift = 0): Date {
  const t = wallTime(date, timeZone);
  const index = t.year * 12 + (t.month - 1) + shift;
  return zonedInstant(
    { year: Math.floor(index / 12), month: (index % 12) + 1, day: 1, hour: 0, minute: 0, second: 0, millisecond: 0 },
    timeZone,
  );
}

/** `YYYY-MM-01`, the zone's month of `date` shifted by `shift` months: how the statistics name a month. */
export function zonedMonthKey(date: Date, timeZone: string, shift = 0): string {
  const t = wallTime(date, timeZone);
  const index = t.year * 12 + (t.month - 1) + shift;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}

/**
 * `months` calendar months before `date` on the zone's clock, at the same time of day, the day
 * clamped to the end of a shorter month (31 May − 3 months is 28 February).
 */
export function zonedMonthsBefore(date: Date, months: number, timeZone: string): Date {
  const t = wallTime(date, timeZone);
  const index = t.year * 12 + (t.month - 1) - months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return zonedInstant({ ...t, year, month, day: Math.min(t.day, daysInMonth(year, month)) }, timeZone);
}

/** `days` calendar days before `date` on the zone's clock, at the same time of day (a day of a DST change is 23 or 25 hours). */
export function zonedDaysBefore(date: Date, days: number, timeZone: string): Date {
  const t = wallTime(date, timeZone);
  const day = new Date(Date.UTC(t.year, t.month - 1, t.day - days));
  return zonedInstant({ ...t, year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate() }, timeZone);
}

/** The first instant of a calendar day (`YYYY-MM-DD`) of the zone, and of the day after it. */
export function zonedDay(day: string, timeZone: string): { start: Date; end: Date } {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(year, month - 1, date + 1));
  const midnight = { hour: 0, minute: 0, second: 0, millisecond: 0 };
  return {
    start: zonedInstant({ year, month, day: date, ...midnight }, timeZone),
    end: zonedInstant({ year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate(), ...midnight }, timeZone),
  };
}

const pad = (n: number, size = 2) => String(n).padStart(size, '0');

/** An instant as the zone's clock reads it, with its offset: `2026-11-01T00:30:00+01:00` (ISO 8601). */
export function formatZoned(date: Date, timeZone: string): string {
  const t = wallTime(date, timeZone);
  const offset = Math.round(zoneOffsetMs(date, timeZone) / 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${t.year}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
