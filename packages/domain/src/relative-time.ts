import type { Language } from './i18n.ts';

type Unit = 'second' | 'minute' | 'hour' | 'day' | 'month' | 'year';

/**
 * The relative-time text of SPEC §9: switches unit at 60 seconds, 60 minutes, 24 hours,
 * 31 days and 12 months.
 */
export function relativeTimeParts(date: Date, now: Date): { value: number; unit: Unit } {
  const seconds = Math.max(0, Math.floor((now.getTime() - date.getTime()) / 1000));
  if (seconds < 60) return { value: seconds, unit: 'second' };
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return { value: minutes, unit: 'minute' };
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return { value: hours, unit: 'hour' };
  const days = Math.floor(hours / 24);
  if (days < 31) return { value: days, unit: 'day' };
  const months = Math.floor(days / 30.4375);
  if (months < 12) return { value: Math.max(1, months), unit: 'month' };
  return { value: Math.max(1, Math.floor(days / 365.25)), unit: 'year' };
}

export function formatRelativeTime(date: Date, now: Date, lang: Language): string {
  const { value, unit } = relativeTimeParts(date, now);
  if (unit === 'second' && value < 10) return lang === 'fr' ? "à l'instant" : 'just now';
  return new Intl.RelativeTimeFormat(lang, { numeric: 'always' }).format(-value, unit);
}
