import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BestCaseRequest } from '@sutura/domain/best-cases';
import { api } from '@/lib/http';
import { bestCaseRequestOptions } from '@/features/videos/api/best-case-request';

// The author's answer, apart from the request's read (best-case-request.ts), which the app's first
// chunk carries for a case page opened first.

export function useAnswerBestCase(videoId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (accept: boolean) =>
      api<BestCaseRequest>('PUT', `/videos/${encodeURIComponent(videoId)}/best-case/consent`, { body: { accept } }),
    onSuccess: (answer) => queryClient.setQueryData(bestCaseRequestOptions(videoId).queryKey, answer),
  });
}
