import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { organSchema, specialtySchema, surgerySchema } from '@sutura/domain/vocabularies';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';

export type Surgery = z.infer<typeof surgerySchema>;
export type Organ = z.infer<typeof organSchema>;
export type Specialty = z.infer<typeof specialtySchema>;

/**
 * What a list of terms is for. An administrator may retire a term (docs/admin-catalog.md): it is
 * no longer offered for a new choice but keeps naming everything that has it.
 * - `'pick'`: a new choice (the upload form, sign-up, the editor's names): retired terms left out.
 * - `'filter'`: a list filter over cases that may have any term: every term, a retired one labelled.
 * - `{ keep }`: a saved choice being edited (a case, a profile): the terms offered today plus the
 *   kept ones, even retired (labelled), and no other retired term.
 */
export type VocabularyUse = 'pick' | 'filter' | { keep: readonly (string | null | undefined)[] };

const VOCABULARY_STALE_MS = 5 * 60 * 1000;

/**
 * Every term, retired ones included and marked: one cached list per kind and language serves every
 * use, which `useSurgeries`/`useOrgans`/`useSpecialties` then narrow.
 */
const everyTerm = <T>(kind: 'surgeries' | 'organs' | 'specialties', lang: string) =>
  queryOptions({
    queryKey: ['vocabularies', kind, lang],
    queryFn: () => api<T[]>('GET', `/vocabularies/${kind}`, { query: { filter: { includeRetired: true } } }),
    staleTime: VOCABULARY_STALE_MS,
  });

interface Term {
  id: string;
  name: string;
  retired: boolean;
}

/** Narrows a list to the terms `use` offers, a retired one named "… (retired)" / "… (retiré)". */
type Offer = <U extends Term>(terms: readonly U[]) => U[];

function useOffer(use: VocabularyUse): Offer {
  const { t } = useTranslation('common');
  // A stable key, so that a new `{ keep }` object each render does not redo the lists.
  const key = typeof use === 'string' ? use : `keep:${use.keep.filter(Boolean).join(',')}`;
  return useMemo(() => {
    const kept = new Set(key.startsWith('keep:') ? key.slice(5).split(',') : []);
    const offered = (term: Term) => !term.retired || key === 'filter' || kept.has(term.id);
    return (terms) =>
      terms.filter(offered).map((term) => (term.retired ? { ...term, name: t('common:retiredTerm', { name: term.name }) } : term));
  }, [key, t]);
}

function useTerms<T extends Term>(
  kind: 'surgeries' | 'organs' | 'specialties',
  use: VocabularyUse,
  shape: (terms: T[], offer: Offer) => T[],
) {
  const query = useQuery(everyTerm<T>(kind, currentLanguage()));
  const offer = useOffer(use);
  const data = useMemo(() => (query.data ? shape(query.data, offer) : undefined), [query.data, offer, shape]);
  return { data, isSuccess: query.isSuccess, isError: query.isError, error: query.error };
}

const flat = <T extends Term>(terms: T[], offer: Offer) => offer(terms);
/** A surgery's steps follow the same rule: a kept key step of a saved case stays. */
const withSteps = (terms: Surgery[], offer: Offer) => offer(terms).map((s) => ({ ...s, steps: offer(s.steps) }));

/** The surgeries with their ordered steps, for `use` (see `VocabularyUse`). */
export function useSurgeries(use: VocabularyUse) {
  return useTerms<Surgery>('surgeries', use, withSteps);
}

export function useOrgans(use: VocabularyUse) {
  return useTerms<Organ>('organs', use, flat);
}

export function useSpecialties(use: VocabularyUse) {
  return useTerms<Specialty>('specialties', use, flat);
}
