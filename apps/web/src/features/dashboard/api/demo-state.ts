import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { demoStateOptions } from '@/features/dashboard/api/dashboard-query';

/**
 * Whether the demo's cases are still being made at the very first start of a demo installation
 * (docs/dashboard.md), read from /v1/health together with the dashboard's numbers, so that the page
 * is drawn once with or without its notice (no request after the first draw, nothing moving).
 * Asked again every few seconds while it is being made; once it is ready every list is read again.
 */
export function useDemoState(enabled: boolean) {
  const queryClient = useQueryClient();
  const query = useQuery({ ...demoStateOptions(), enabled });
  const wasPreparing = useRef(false);
  const preparing = query.data?.preparing ?? false;
  useEffect(() => {
    // The demo just became ready: the numbers and lists read meanwhile were empty.
    if (wasPreparing.current && !preparing) void queryClient.invalidateQueries();
    wasPreparing.current = preparing;
  }, [preparing, queryClient]);
  return query;
}
