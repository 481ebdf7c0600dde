import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminVocabularies, VocabularyKind } from '@sutura/domain/admin-catalog';
import { api } from '@/lib/http';

export const vocabularyKeys = { all: ['admin', 'vocabularies'] as const };

/** Every list with both names, retired terms included (GET /admin/vocabularies). */
export function useAdminVocabularies() {
  return useQuery({ queryKey: vocabularyKeys.all, queryFn: () => api<AdminVocabularies>('GET', '/admin/vocabularies') });
}

export interface TermFields {
  nameFr: string;
  nameEn: string;
  icon?: string;
  organId?: string | null;
}

/** What an administrator does to a term; every answer refetches the lists (the pickers' too). */
export type VocabularyChange =
  | { type: 'create'; kind: Exclude<VocabularyKind, 'steps'>; fields: TermFields }
  | { type: 'createStep'; surgeryId: string; fields: TermFields }
  | { type: 'update'; kind: VocabularyKind; id: string; fields: TermFields }
  | { type: 'reorder'; kind: Exclude<VocabularyKind, 'steps'>; ids: string[] }
  | { type: 'reorderSteps'; surgeryId: string; ids: string[] }
  | { type: 'retire' | 'restore'; kind: VocabularyKind; id: string }
  | { type: 'delete'; kind: VocabularyKind; id: string };

const base = '/admin/vocabularies';

function send(change: VocabularyChange): Promise<unknown> {
  switch (change.type) {
    case 'create':
      return api('POST', `${base}/${change.kind}`, { body: change.fields });
    case 'createStep':
      return api('POST', `${base}/surgeries/${change.surgeryId}/steps`, { body: change.fields });
    case 'update':
      return api('PUT', `${base}/${change.kind}/${change.id}`, { body: change.fields });
    case 'reorder':
      return api('PUT', `${base}/${change.kind}/order`, { body: { ids: change.ids } });
    case 'reorderSteps':
      return api('PUT', `${base}/surgeries/${change.surgeryId}/steps/order`, { body: { ids: change.ids } });
    case 'retire':
    case 'restore':
      return api('POST', `${base}/${change.kind}/${change.id}/${change.type}`, { body: {} });
    case 'delete':
      return api('DELETE', `${base}/${change.kind}/${change.id}`);
  }
}

export function useVocabularyChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    // Refused or not, the lists are fetched again: a stale order shows the list as it now is.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: vocabularyKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['vocabularies'] }),
      ]),
  });
}
