import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { specialtySchema } from '@sutura/domain/vocabularies';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';

export type Specialty = z.infer<typeof specialtySchema>;

/** Names come in the caller's language, so the language is part of the key. */
export function specialtiesOptions(lang: string) {
  return queryOptions({
    queryKey: ['vocabularies', 'specialties', lang],
    queryFn: () => api<Specialty[]>('GET', '/vocabularies/specialties'),
    staleTime: 5 * 60_000,
  });
}

export function useSpecialties() {
  return useQuery(specialtiesOptions(currentLanguage()));
}
