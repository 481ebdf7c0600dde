import { startServer } from './server.ts';

/**
 * The data folder every spec's server starts from: made once by a first start (migrations, the
 * vocabularies, the RPPS sample), then copied for each spec file (e2e/fixtures.ts).
 */
export default async function globalSetup() {
  const started = Date.now();
  const template = await startServer({ label: 'template' });
  await template.stop(true);
  process.env.E2E_TEMPLATE_DIR = template.dataDir;
  process.stdout.write(`Test data folder ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return async () => {
    const { rmSync } = await import('node:fs');
    if (!process.env.E2E_KEEP_DATA) rmSync(template.dataDir, { recursive: true, force: true });
  };
}
