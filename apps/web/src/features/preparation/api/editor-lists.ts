import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { heldListResponse, poolListResponse, preparedListResponse } from '@sutura/domain/preparation';
import { PAGE_LIMIT_MAX } from '@sutura/domain/limits';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { editorKeys, type PoolParams } from '@/features/preparation/api/editor-keys';

export type PoolList = z.infer<typeof poolListResponse>;
export type HeldList = z.infer<typeof heldListResponse>;
export type PreparedList = z.infer<typeof preparedListResponse>;

export const EDITOR_PAGE_SIZE = 12;

export const getPool = (params: PoolParams) => {
  const filter: Record<string, string> = {};
  if (params.surgeryId) filter.surgeryId = params.surgeryId;
  if (params.organId) filter.organId = params.organId;
  return api<PoolList>('GET', '/editor/pool', { query: { page: params.page, limit: EDITOR_PAGE_SIZE, filter } });
};
// Everything held on one page: an editor holds a few videos, the list has no pagination.
export const getHeld = () => api<HeldList>('GET', '/editor/held', { query: { limit: PAGE_LIMIT_MAX } });
export const getPrepared = (page: number) => api<PreparedList>('GET', '/editor/prepared', { query: { page, limit: EDITOR_PAGE_SIZE } });

export const poolOptions = (lang: string, params: PoolParams) =>
  queryOptions({ queryKey: editorKeys.pool(lang, params), queryFn: () => getPool(params), placeholderData: keepPreviousData });
export const heldOptions = (lang: string) => queryOptions({ queryKey: editorKeys.held(lang), queryFn: getHeld });
export const preparedOptions = (lang: string, page: number) =>
  queryOptions({ queryKey: editorKeys.prepared(lang, page), queryFn: () => getPrepared(page), placeholderData: keepPreviousData });

export const usePool = (params: PoolParams) => useQuery(poolOptions(currentLanguage(), params));
export const useHeld = () => useQuery(heldOptions(currentLanguage()));
export const usePrepared = (page: number) => useQuery(preparedOptions(currentLanguage(), page));
