import { isErrorCode } from '@/lib/error-codes';
import { API_BASE, ApiRequestError, SESSION_HEADERS } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';

// Apart from the result's reads (analysis-result.ts), which a case page opened first asks for with
// the app's first chunk: that chunk does not carry the report's download.

/** The PDF report in the reader's language, saved under the name the server gives it. */
export async function downloadAnalysisReport(videoId: string): Promise<void> {
  const response = await fetch(`${API_BASE}/videos/${videoId}/analysis/report?langCode=${currentLanguage()}`, {
    headers: SESSION_HEADERS,
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
    const code = isErrorCode(body?.error?.code) ? body.error.code : 'GENERIC';
    throw new ApiRequestError(response.status, code, body?.error?.message ?? response.statusText);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'analysis-report.pdf';
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the blob to the download; the address can go.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
