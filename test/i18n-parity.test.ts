import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every user-visible string of the web app exists in French and in English. */
const locales = path.resolve(import.meta.dirname, '../apps/web/src/locales');

function flatten(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) for (const [kk, vv] of flatten(v, prefix ? `${prefix}.${k}` : k)) out.set(kk, vv);
  } else out.set(prefix, String(value));
  return out;
}

const load = (lang: string) =>
  new Map(
    readdirSync(path.join(locales, lang))
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f, flatten(JSON.parse(readFileSync(path.join(locales, lang, f), 'utf8')))] as const),
  );

describe('web translations', () => {
  const fr = load('fr');
  const en = load('en');

  it('have the same namespaces in both languages', () => {
    expect([...fr.keys()].sort()).toEqual([...en.keys()].sort());
    expect(fr.size).toBeGreaterThan(0);
  });

  it('have the same keys, no empty text, and the same placeholders', () => {
    for (const [file, frKeys] of fr) {
      const enKeys = en.get(file)!;
      expect(
        [...frKeys.keys()].filter((k) => !enKeys.has(k)),
        `only in fr/${file}`,
      ).toEqual([]);
      expect(
        [...enKeys.keys()].filter((k) => !frKeys.has(k)),
        `only in en/${file}`,
      ).toEqual([]);
      for (const [key, text] of frKeys) {
        expect(text.trim(), `fr/${file}:${key}`).not.toBe('');
        expect(enKeys.get(key)!.trim(), `en/${file}:${key}`).not.toBe('');
        const holes = (s: string) => (s.match(/\{\{\s*\w+\s*\}\}/g) ?? []).map((h) => h.replace(/\s/g, '')).sort();
        expect(holes(text), `placeholders of ${file}:${key}`).toEqual(holes(enKeys.get(key)!));
      }
    }
  });
});
