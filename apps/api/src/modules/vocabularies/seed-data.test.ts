import { describe, expect, it } from 'vitest';
import { ORGAN_ICONS } from '@sutura/domain/vocabularies';
import { ORGANS, SPECIALTIES, SURGERIES, type LocalizedName } from './seed-data.ts';

const duplicates = (codes: readonly string[]) => codes.filter((code, i) => codes.indexOf(code) !== i);
const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

const allNames: { where: string; name: LocalizedName }[] = [
  ...SPECIALTIES.map((s) => ({ where: `specialty ${s.code}`, name: s.name })),
  ...ORGANS.map((o) => ({ where: `organ ${o.code}`, name: o.name })),
  ...SURGERIES.flatMap((s) => [
    { where: `surgery ${s.code}`, name: s.name },
    ...s.steps.map((step) => ({ where: `step ${s.code}.${step.code}`, name: step.name })),
  ]),
];

describe('vocabulary seed data', () => {
  it('has the sixteen surgeries of the specification', () => {
    expect(SURGERIES).toHaveLength(16);
  });

  it('has one organ per organ icon: the six of the specification, the colon and the gallbladder', () => {
    expect(ORGANS).toHaveLength(8);
    expect(new Set(ORGANS.map((o) => o.icon)).size).toBe(8);
    expect([...ORGANS.map((o) => o.icon)].sort()).toEqual([...ORGAN_ICONS].sort());
  });

  it('uses unique snake_case codes', () => {
    for (const codes of [SPECIALTIES.map((s) => s.code), ORGANS.map((o) => o.code), SURGERIES.map((s) => s.code)]) {
      expect(duplicates(codes)).toEqual([]);
    }
    for (const surgery of SURGERIES) {
      expect(duplicates(surgery.steps.map((s) => s.code)), surgery.code).toEqual([]);
    }
    const every = [
      ...SPECIALTIES.map((s) => s.code),
      ...ORGANS.map((o) => o.code),
      ...SURGERIES.flatMap((s) => [s.code, ...s.steps.map((step) => step.code)]),
    ];
    expect(every.filter((code) => !SNAKE_CASE.test(code))).toEqual([]);
  });

  it('names everything in French and in English', () => {
    const missing = allNames.filter(({ name }) => name.fr.trim() === '' || name.en.trim() === '');
    expect(missing.map((m) => m.where)).toEqual([]);
  });

  it('gives every surgery between 5 and 10 ordered steps', () => {
    for (const surgery of SURGERIES) {
      expect(surgery.steps.length, surgery.code).toBeGreaterThanOrEqual(5);
      expect(surgery.steps.length, surgery.code).toBeLessThanOrEqual(10);
    }
  });

  it('links surgeries only to organs that exist', () => {
    const organCodes = new Set(ORGANS.map((o) => o.code));
    const dangling = SURGERIES.filter((s) => s.organ !== null && !organCodes.has(s.organ));
    expect(dangling.map((s) => s.code)).toEqual([]);
    const organOf = Object.fromEntries(SURGERIES.map((s) => [s.code, s.organ]));
    expect(organOf).toMatchObject({
      adrenalectomy: 'adrenal_gland',
      kidney_transplantation: 'kidney',
      pyeloplasty: 'kidney',
      prostate_enucleation: 'prostate',
      prostate_resection: 'prostate',
      upper_adenomectomy: 'prostate',
      hifu: 'prostate',
      cholecystectomy: 'gallbladder',
      colectomy: 'colon',
    });
  });

  it('includes an "other" specialty', () => {
    expect(SPECIALTIES.some((s) => s.code === 'other')).toBe(true);
  });
});
