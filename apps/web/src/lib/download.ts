import { isErrorCode } from '@/lib/error-codes';
import { API_BASE, ApiRequestError, SESSION_HEADERS } from '@/lib/http';
import { i18n } from '@/lib/i18n';

/**
 * A file the server streams (a CSV export), read with the session — the session cookie needs the
 * app's header, so a plain link would not do — and handed to the browser as a download under the
 * server's file name (`fallbackName` when it gives none). A refusal throws as `api` does.
 */
export async function downloadFile(path: string, fallbackName: string): Promise<void> {
  const response = await fetch(`${API_BASE}${path}`, { headers: SESSION_HEADERS, credentials: 'same-origin' });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
    const code = body?.error?.code;
    throw new ApiRequestError(response.status, isErrorCode(code) ? code : 'GENERIC', body?.error?.message ?? i18n.t('errors:GENERIC'));
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const href = URL.createObjectURL(await response.blob());
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}
