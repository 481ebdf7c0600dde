import { describe, expect, it } from 'vitest';

const files = import.meta.glob<Record<string, unknown>>('./*/*.json', { eager: true, import: 'default' });

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

function byLanguage(lang: string): Map<string, Record<string, unknown>> {
  const map = new Map<string, Record<string, unknown>>();
  for (const [path, messages] of Object.entries(files)) {
    const [, fileLang, ns] = /^\.\/([^/]+)\/([^/]+)\.json$/.exec(path) ?? [];
    if (fileLang === lang && ns) map.set(ns, messages);
  }
  return map;
}

describe('locales', () => {
  const fr = byLanguage('fr');
  const en = byLanguage('en');

  it('has the same namespaces in French and English', () => {
    expect([...fr.keys()].sort()).toEqual([...en.keys()].sort());
  });

  for (const [ns, messages] of fr) {
    it(`has the same keys in both languages for ${ns}`, () => {
      expect(keys(messages).sort()).toEqual(keys(en.get(ns)).sort());
    });
  }

  it('has no empty text', () => {
    for (const map of [fr, en])
      for (const messages of map.values())
        for (const key of keys(messages)) {
          const text = key.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], messages);
          expect(typeof text === 'string' && text.trim().length > 0, key).toBe(true);
        }
  });
});
