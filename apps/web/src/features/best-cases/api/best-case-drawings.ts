import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BestCaseDrawing, BestCaseDrawingBody } from '@sutura/domain/drawing';
import { api } from '@/lib/http';

/** Teaching drawings of a best case (issue 18): whoever may watch it reads them, administrators write. */
export const bestCaseDrawingKeys = { of: (id: string) => ['best-cases', 'drawings', id] as const };

export function useBestCaseDrawings(id: string | null) {
  return useQuery({
    queryKey: bestCaseDrawingKeys.of(id ?? ''),
    queryFn: () => api<BestCaseDrawing[]>('GET', `/best-cases/${encodeURIComponent(id!)}/drawings`),
    enabled: Boolean(id),
  });
}

export function useAddBestCaseDrawing(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BestCaseDrawingBody) =>
      api<BestCaseDrawing>('POST', `/admin/best-cases/${encodeURIComponent(id)}/drawings`, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bestCaseDrawingKeys.of(id) }),
  });
}

export function useDeleteBestCaseDrawing(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (drawingId: string) =>
      api('DELETE', `/admin/best-cases/${encodeURIComponent(id)}/drawings/${encodeURIComponent(drawingId)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bestCaseDrawingKeys.of(id) }),
  });
}
