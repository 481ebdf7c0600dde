import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AdminBestCase,
  AdminBestCaseDetail,
  BestCaseDetail,
  BestCaseStepsBody,
  BestCaseSummary,
  CreateBestCaseBody,
} from '@sutura/domain/best-cases';
import type { z } from 'zod';
import type { updateBestCaseBody } from '@sutura/domain/best-cases';
import type { AdminVideoList } from '@sutura/domain/admin-catalog';
import type { bestCaseStepNotesBody } from '@sutura/domain/comparison';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';

export type UpdateBestCaseBody = z.input<typeof updateBestCaseBody>;
export type BestCaseStepNotesInput = z.input<typeof bestCaseStepNotesBody>;
interface Page<T> {
  data: T[];
  total: number;
  page: number;
  limit: number;
}

export const BEST_CASE_PAGE_SIZE = 12;
export const ADMIN_BEST_CASE_PAGE_SIZE = 20;

export interface BestCaseFilters {
  surgeryId?: string;
  organId?: string;
  page: number;
}

const filterOf = (params: { surgeryId?: string; organId?: string }) => {
  const filter: Record<string, string> = {};
  if (params.surgeryId) filter.surgeryId = params.surgeryId;
  if (params.organId) filter.organId = params.organId;
  return filter;
};

/** Every query of this feature starts with this key: a write refreshes them all. */
const root = ['best-cases'] as const;
export const bestCaseKeys = {
  browse: (lang: string, params: BestCaseFilters) => [...root, 'browse', lang, params] as const,
  one: (lang: string, id: string) => [...root, 'one', lang, id] as const,
  admin: (lang: string, page: number) => [...root, 'admin', lang, page] as const,
  adminOne: (lang: string, id: string) => [...root, 'admin-one', lang, id] as const,
  request: (videoId: string) => [...root, 'request', videoId] as const,
};

export function useBestCases(params: BestCaseFilters) {
  return useQuery({
    queryKey: bestCaseKeys.browse(currentLanguage(), params),
    queryFn: () =>
      api<Page<BestCaseSummary>>('GET', '/best-cases', {
        query: { filter: filterOf(params), page: params.page, limit: BEST_CASE_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });
}

export function useBestCase(id: string) {
  return useQuery({
    queryKey: bestCaseKeys.one(currentLanguage(), id),
    queryFn: () => api<BestCaseDetail>('GET', `/best-cases/${encodeURIComponent(id)}`),
    retry: false,
  });
}

/** The administration's list; polled while a video is on its way, so its progress shows. */
export function useAdminBestCases(page: number) {
  return useQuery({
    queryKey: bestCaseKeys.admin(currentLanguage(), page),
    queryFn: () => api<Page<AdminBestCase>>('GET', '/admin/best-cases', { query: { page, limit: ADMIN_BEST_CASE_PAGE_SIZE } }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.data.some((c) => c.mediaStatus === 'uploading' || c.mediaStatus === 'processing') ? 3000 : false,
  });
}

export function useAdminBestCase(id: string | null) {
  return useQuery({
    queryKey: bestCaseKeys.adminOne(currentLanguage(), id ?? ''),
    queryFn: () => api<AdminBestCaseDetail>('GET', `/admin/best-cases/${encodeURIComponent(id ?? '')}`),
    enabled: !!id,
  });
}

/** How many analysed cases the picker shows at once; the search reaches every other one. */
export const ANALYSED_PICKER_SIZE = 50;

/**
 * The analysed cases an administrator may turn into best cases, newest first, searched on the
 * server among all of them (author's name or email, surgery), through the administrators' list.
 */
export function useAnalysedVideos(enabled: boolean, search: string) {
  const text = search.trim();
  return useQuery({
    queryKey: ['videos', 'analysed-for-best-cases', currentLanguage(), text],
    queryFn: () =>
      api<AdminVideoList>('GET', '/admin/surgery-videos', {
        query: {
          filter: { status: 'analysed', mediaStatus: 'ready', ...(text ? { search: text } : {}) },
          limit: ANALYSED_PICKER_SIZE,
        },
      }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

function useInvalidating<A, R>(fn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => queryClient.invalidateQueries({ queryKey: root }) });
}

export const useCreateBestCase = () =>
  useInvalidating((body: CreateBestCaseBody) => api<AdminBestCaseDetail>('POST', '/admin/best-cases', { body }));
export const useUpdateBestCase = () =>
  useInvalidating(({ id, body }: { id: string; body: UpdateBestCaseBody }) =>
    api<AdminBestCaseDetail>('PUT', `/admin/best-cases/${encodeURIComponent(id)}`, { body }),
  );
export const usePublishBestCase = () =>
  useInvalidating(({ id, published }: { id: string; published: boolean }) =>
    api<AdminBestCaseDetail>('PUT', `/admin/best-cases/${encodeURIComponent(id)}/published`, { body: { published } }),
  );
export const useBestCaseSteps = () =>
  useInvalidating(({ id, body }: { id: string; body: BestCaseStepsBody }) =>
    api<AdminBestCaseDetail>('PUT', `/admin/best-cases/${encodeURIComponent(id)}/steps`, { body }),
  );
export const useBestCaseStepNotes = () =>
  useInvalidating(({ id, body }: { id: string; body: BestCaseStepNotesInput }) =>
    api<AdminBestCaseDetail>('PUT', `/admin/best-cases/${encodeURIComponent(id)}/step-notes`, { body }),
  );
export const useDeleteBestCase = () =>
  useInvalidating((id: string) => api<Record<string, never>>('DELETE', `/admin/best-cases/${encodeURIComponent(id)}`));
