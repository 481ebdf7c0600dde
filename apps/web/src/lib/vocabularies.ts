import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { organSchema, surgerySchema } from '@sutura/domain/vocabularies';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';

export type Surgery = z.infer<typeof surgerySchema>;
export type Organ = z.infer<typeof organSchema>;

const VOCABULARY_STALE_MS = 5 * 60 * 1000;

/** Names come in the caller's language (the client sends `langCode`), hence the key. */
export const surgeriesQueryOptions = (lang: string) =>
  queryOptions({
    queryKey: ['vocabularies', 'surgeries', lang],
    queryFn: () => api<Surgery[]>('GET', '/vocabularies/surgeries'),
    staleTime: VOCABULARY_STALE_MS,
  });

export const organsQueryOptions = (lang: string) =>
  queryOptions({
    queryKey: ['vocabularies', 'organs', lang],
    queryFn: () => api<Organ[]>('GET', '/vocabularies/organs'),
    staleTime: VOCABULARY_STALE_MS,
  });

export function useSurgeries() {
  return useQuery(surgeriesQueryOptions(currentLanguage()));
}

export function useOrgans() {
  return useQuery(organsQueryOptions(currentLanguage()));
}
