import { describe, expect, it } from 'vitest';
import { buildAgreementReport } from './agreement.ts';
import { agreementReportSchema, calibrationFilterSchema } from './calibration.ts';

const SURGERY = '1b4e28ba-2fa1-41d2-883f-0016d3cca427';

describe('the calibration route: query', () => {
  it('takes a period, and optionally a surgery and an expert', () => {
    expect(calibrationFilterSchema.parse({ from: '2026-01-01', to: '2026-06-30' })).toEqual({ from: '2026-01-01', to: '2026-06-30' });
    expect(calibrationFilterSchema.safeParse({ from: '2026-01-01', to: '2026-01-01', surgeryId: SURGERY, expertId: SURGERY }).success).toBe(
      true,
    );
  });

  it.each([
    [{ to: '2026-06-30' }, 'from', 'FIELD_REQUIRED'],
    [{ from: '2026-01-01' }, 'to', 'FIELD_REQUIRED'],
    [{ from: '2026-07-01', to: '2026-06-30' }, 'to', 'DATE_RANGE_INVERTED'],
    [{ from: '2026-02-30', to: '2026-06-30' }, 'from', 'INVALID_VALUE'],
    [{ from: '2026-01-01', to: '2026-06-30', surgeryId: 'heart' }, 'surgeryId', 'INVALID_VALUE'],
    [{ from: '2026-01-01', to: '2026-06-30', expertId: '42' }, 'expertId', 'INVALID_VALUE'],
  ])('refuses %j with a catalogue code', (filter, path, code) => {
    const parsed = calibrationFilterSchema.safeParse(filter);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]).toMatchObject({ path: [path], message: code });
  });

  it('refuses an unknown filter', () => {
    expect(calibrationFilterSchema.safeParse({ from: '2026-01-01', to: '2026-06-30', learnerId: SURGERY }).success).toBe(false);
  });
});

describe('the calibration route: answer', () => {
  it('describes what buildAgreementReport returns, empty or full', () => {
    const empty = buildAgreementReport({ cases: [], from: '2026-01-01', to: '2026-06-30' });
    expect(agreementReportSchema.parse(empty)).toEqual(empty);
    const full = buildAgreementReport({
      cases: Array.from({ length: 12 }, (_, i) => ({
        caseId: `c${i}`,
        reviews: [
          { expertId: 'A', ratings: { efficiency: 1 + (i % 5), global: 1 + (i % 5) }, stepRatings: { s: 1 + (i % 4) } },
          { expertId: 'B', ratings: { efficiency: 1 + ((i + 1) % 5), global: 1 + (i % 5) }, stepRatings: { s: 1 + (i % 4) } },
          ...(i % 3 === 0 ? [{ expertId: 'C', ratings: { efficiency: 3 } }] : []),
        ],
      })),
      experts: [{ id: 'A', name: 'Dr A' }],
      from: '2026-01-01',
      to: '2026-06-30',
      surgeryId: SURGERY,
    });
    expect(agreementReportSchema.parse(full)).toEqual(full);
    expect(full.items.find((i) => i.item === 'efficiency')!.kappa.value).not.toBeNull();
    // The global ratings agree perfectly: a value of 1 and no interval, in the schema too.
    expect(full.items.find((i) => i.item === 'global')!.icc).toEqual({ value: 1, ci: null, gap: 'perfectAgreement' });
  });
});
