import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { specialtySchema } from '@sutura/domain/vocabularies';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';

export type Specialty = z.infer<typeof specialtySchema>;

/** Names come in the caller's language (the client sends `langCode`), hence the key. */
export const specialtiesQueryOptions = (lang: string) =>
  queryOptions({
    queryKey: ['vocabularies', 'specialties', lang],
    queryFn: () => api<Specialty[]>('GET', '/vocabularies/specialties'),
    staleTime: 5 * 60 * 1000,
  });

export function useSpecialties() {
  return useQuery(specialtiesQueryOptions(currentLanguage()));
}
