import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The repository's ESLint configuration refuses a web feature importing another feature. */
const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });
// An existing file, so that the typed rules of the configuration find it in its project.
const file = path.join(root, 'apps/web/src/features/preparation/routes.tsx');

async function crossFeatureMessages(code: string, filePath = file) {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'sutura/no-cross-feature-imports').map((m) => m.message);
}

describe('feature boundaries of the web app', () => {
  it('refuses an import of another feature by the @/ alias', async () => {
    const messages = await crossFeatureMessages(
      "import { VideoCard } from '@/features/videos/components/video-card';\nexport const card = VideoCard;\n",
    );
    expect(messages).toEqual([
      "The feature 'preparation' may not import from the feature 'videos': move what they share to components/ or lib/.",
    ]);
    // The first lint loads the web project's types: minutes on a loaded machine.
  }, 240_000);

  it('refuses a relative import, a re-export and a lazy import of another feature', async () => {
    const messages = await crossFeatureMessages(
      [
        "import { analysisRoutes } from '../analysis/routes';",
        "export { useVideoDetail } from '../videos/api/video-detail';",
        "export const lazy = () => import('@/features/analysis/pages/analysis-page');",
        'export const routes = analysisRoutes;',
        '',
      ].join('\n'),
    );
    expect(messages).toHaveLength(3);
  }, 60_000);

  it('lets a feature import itself, shared components and lib', async () => {
    const messages = await crossFeatureMessages(
      [
        "import { RatingBadge } from '@/components/case/rating-badge';",
        "import { useUploadProgress } from '@/lib/use-upload-progress';",
        "import { PreparationWorkspace } from '@/features/preparation/components/preparation-workspace';",
        "import { TrimList } from './components/trim-list';",
        'export const used = [RatingBadge, useUploadProgress, PreparationWorkspace, TrimList];',
        '',
      ].join('\n'),
    );
    expect(messages).toEqual([]);
  }, 60_000);

  it('leaves the router (outside the features) free to import every feature', async () => {
    const router = path.join(root, 'apps/web/src/app/router.tsx');
    const messages = await crossFeatureMessages(
      "import { analysisRoutes } from '@/features/analysis/routes';\nexport const r = analysisRoutes;\n",
      router,
    );
    expect(messages).toEqual([]);
  }, 60_000);
});
