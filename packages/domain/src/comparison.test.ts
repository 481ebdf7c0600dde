import { describe, expect, it } from 'vitest';
import { bestCaseStepNotesBody, matchSteps, normalizeStepName, type ComparableStep } from './comparison.ts';

let n = 0;
/** Steps one after the other, each `seconds` long, named and (when given) from the vocabulary. */
function steps(prefix: string, list: [name: string, vocabulary: string | null, seconds: number][]): ComparableStep[] {
  let at = 0;
  return list.map(([name, surgeryStepId, seconds], position) => {
    const step = { id: `${prefix}${position}-${n++}`, position, surgeryStepId, name, start: at, end: at + seconds };
    at += seconds + 2;
    return step;
  });
}
const names = (all: ComparableStep[], id: string | null) => (id === null ? null : all.find((s) => s.id === id)!.name);

describe('step matching of a comparison', () => {
  it('pairs the same steps and gives both durations with the difference', () => {
    const mine = steps('c', [
      ['Exposure', 'v1', 30],
      ['Dissection', 'v2', 50],
    ]);
    const best = steps('b', [
      ['Exposure', 'v1', 20],
      ['Dissection', 'v2', 55.5],
    ]);
    const rows = matchSteps(mine, best);
    expect(rows).toEqual([
      {
        caseStepId: mine[0]!.id,
        bestStepId: best[0]!.id,
        matchedBy: 'vocabulary',
        caseDuration: 30,
        bestDuration: 20,
        difference: 10,
        outOfOrder: false,
      },
      {
        caseStepId: mine[1]!.id,
        bestStepId: best[1]!.id,
        matchedBy: 'vocabulary',
        caseDuration: 50,
        bestDuration: 55.5,
        difference: -5.5,
        outOfOrder: false,
      },
    ]);
  });

  it('says which step the best case lacks (missing) and which only the best case has (extra), in place', () => {
    const mine = steps('c', [
      ['Exposure', 'v1', 30],
      ['Ureter dissection', 'v2', 40],
      ['Closure', 'v4', 10],
    ]);
    const best = steps('b', [
      ['Exposure', 'v1', 25],
      ['Pyelotomy', 'v3', 35],
      ['Closure', 'v4', 12],
    ]);
    const rows = matchSteps(mine, best);
    expect(rows.map((r) => [names(mine, r.caseStepId), names(best, r.bestStepId)])).toEqual([
      ['Exposure', 'Exposure'],
      ['Ureter dissection', null],
      [null, 'Pyelotomy'],
      ['Closure', 'Closure'],
    ]);
    expect(rows[1]).toMatchObject({ matchedBy: null, caseDuration: 40, bestDuration: null, difference: null });
    expect(rows[2]).toMatchObject({ matchedBy: null, caseDuration: null, bestDuration: 35, difference: null });
  });

  it('puts the best case extra steps before everything when they come first', () => {
    const mine = steps('c', [['Closure', 'v4', 10]]);
    const best = steps('b', [
      ['Positioning', 'v0', 5],
      ['Closure', 'v4', 12],
      ['Drain', 'v5', 3],
    ]);
    expect(matchSteps(mine, best).map((r) => names(best, r.bestStepId))).toEqual(['Positioning', 'Closure', 'Drain']);
    expect(matchSteps([], best).every((r) => r.caseStepId === null)).toBe(true);
    expect(matchSteps(mine, []).map((r) => r.bestStepId)).toEqual([null]);
  });

  it('matches a renamed step by its vocabulary step, and a free-named one by its normalized name', () => {
    const mine = steps('c', [
      ['Exposition de la jonction', 'v1', 30],
      ['  Dissection de l’URETÈRE ', null, 40],
    ]);
    const best = steps('b', [
      ['Junction exposure', 'v1', 20],
      ['dissection de l uretere', 'v2', 35],
    ]);
    const rows = matchSteps(mine, best);
    expect(rows.map((r) => [r.caseStepId, r.bestStepId, r.matchedBy])).toEqual([
      [mine[0]!.id, best[0]!.id, 'vocabulary'],
      [mine[1]!.id, best[1]!.id, 'name'],
    ]);
  });

  it('never pairs two different vocabulary steps that happen to share a name', () => {
    const rows = matchSteps(steps('c', [['Suture', 'v1', 10]]), steps('b', [['Suture', 'v2', 10]]));
    expect(rows.map((r) => [r.caseStepId !== null, r.bestStepId !== null])).toEqual([
      [true, false],
      [false, true],
    ]);
  });

  it('pairs a duplicated step occurrence by occurrence, the surplus left unmatched', () => {
    const mine = steps('c', [
      ['Haemostasis', 'v5', 10],
      ['Suture', 'v6', 20],
      ['Haemostasis', 'v5', 15],
      ['Haemostasis', 'v5', 5],
    ]);
    const best = steps('b', [
      ['Haemostasis', 'v5', 8],
      ['Suture', 'v6', 18],
      ['Haemostasis', 'v5', 12],
    ]);
    const rows = matchSteps(mine, best);
    expect(rows.map((r) => [r.caseStepId, r.bestStepId])).toEqual([
      [mine[0]!.id, best[0]!.id],
      [mine[1]!.id, best[1]!.id],
      [mine[2]!.id, best[2]!.id],
      [mine[3]!.id, null],
    ]);
    expect(rows.map((r) => r.difference)).toEqual([2, 2, 3, null]);
  });

  it('keeps the case order for reordered steps and flags the ones the best case does elsewhere', () => {
    const mine = steps('c', [
      ['Exposure', 'v1', 10],
      ['Suture', 'v3', 10],
      ['Dissection', 'v2', 10],
    ]);
    const best = steps('b', [
      ['Exposure', 'v1', 10],
      ['Dissection', 'v2', 10],
      ['Suture', 'v3', 10],
    ]);
    const rows = matchSteps(mine, best);
    expect(rows.map((r) => names(mine, r.caseStepId))).toEqual(['Exposure', 'Suture', 'Dissection']);
    expect(rows.map((r) => names(best, r.bestStepId))).toEqual(['Exposure', 'Suture', 'Dissection']);
    expect(rows.map((r) => r.outOfOrder)).toEqual([false, false, true]);
  });

  it('reads the steps by position, whatever the order of the lists', () => {
    const mine = steps('c', [
      ['A', 'v1', 10],
      ['B', 'v2', 10],
    ]);
    const rows = matchSteps([...mine].reverse(), steps('b', [['B', 'v2', 10]]));
    expect(rows.map((r) => names(mine, r.caseStepId))).toEqual(['A', 'B']);
    expect(rows.map((r) => r.outOfOrder)).toEqual([false, false]);
  });

  it('normalizes names without accents, case or punctuation', () => {
    expect(normalizeStepName('  Dissection de l’URETÈRE — côté gauche ')).toBe('dissection de l uretere cote gauche');
    expect(normalizeStepName('***')).toBe('');
  });

  it('accepts notes in either language, empty ones dropped, and refuses a bad step id', () => {
    const id = '7f0b6a1e-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
    expect(bestCaseStepNotesBody.parse({ notes: [{ stepId: id, noteFr: ' Regardez la traction ', noteEn: '' }] })).toEqual({
      notes: [{ stepId: id, noteFr: 'Regardez la traction', noteEn: undefined }],
    });
    expect(bestCaseStepNotesBody.safeParse({ notes: [{ stepId: 'x', noteFr: 'a' }] }).success).toBe(false);
  });
});
