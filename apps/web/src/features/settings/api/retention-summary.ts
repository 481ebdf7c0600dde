import { useQuery } from '@tanstack/react-query';
import type { RetentionRules } from '@sutura/domain/retention';
import { api } from '@/lib/http';

/** The retention rules in force, for the summary of Settings → Privacy (GET /retention/summary). */
export function useRetentionSummary() {
  return useQuery({ queryKey: ['retention', 'summary'], queryFn: () => api<RetentionRules>('GET', '/retention/summary') });
}
