import { downloadFile } from '@/lib/download';
import { currentLanguage } from '@/lib/i18n';

// Apart from the result's reads (analysis-result.ts), which a case page opened first asks for with
// the app's first chunk: that chunk does not carry the report's download.

/** The PDF report in the reader's language, saved under the name the server gives it. */
export function downloadAnalysisReport(videoId: string): Promise<void> {
  return downloadFile(`/videos/${encodeURIComponent(videoId)}/analysis/report?langCode=${currentLanguage()}`, 'analysis-report.pdf');
}
