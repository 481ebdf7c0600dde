const pad = (n: number) => String(n).padStart(2, '0');

/** A length in seconds as h:mm:ss (`0:20:05`), as the video list shows it. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** A player time: m:ss, or h:mm:ss once the video lasts an hour. */
export function formatClock(seconds: number, withHours: boolean): string {
  const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const mmss = `${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  if (withHours) return `${Math.floor(s / 3600)}:${mmss}`;
  return `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

export function formatDate(iso: string, lang: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium' }).format(new Date(iso));
}

export function formatDateTime(iso: string, lang: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** A calendar day (YYYY-MM-DD) in the reader's language, never shifted by their time zone. */
export function formatDay(day: string, lang: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
}
