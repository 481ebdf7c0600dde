import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = path.resolve(import.meta.dirname, '../src');

/**
 * Builds the process's metrics in a child Node (METRICS_TOKEN or METRICS_PORT set, or neither),
 * records a request and a job, and says whether prom-client was loaded and what a scrape reads.
 */
function metricsIn(enabled: boolean): { promClient: boolean; undici: boolean; body: string } {
  const metrics = pathToFileURL(path.join(src, 'metrics.ts')).href;
  const app = pathToFileURL(path.join(src, 'app.ts')).href;
  const script = `import { registerHooks } from 'node:module';
let promClient = false;
registerHooks({ resolve(specifier, context, next) { if (specifier === 'prom-client') promClient = true; return next(specifier, context); } });
const { createMetrics } = await import(${JSON.stringify(metrics)});
await import(${JSON.stringify(app)});
const m = createMetrics({ defaults: false, enabled: ${enabled} });
m.requestDuration.observe({ method: 'GET', route: '/v1/videos', status: '200' }, 0.012);
m.jobDuration.startTimer({ kind: 'video.process' })({ outcome: 'completed' });
m.uploadBytes.inc(1234);
const { body } = await m.render();
const undici = process.moduleLoadList.some((name) => name.includes('undici'));
process.stdout.write(JSON.stringify({ promClient, undici, body }));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 120_000 });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { promClient: boolean; undici: boolean; body: string };
}

describe('the metrics of a process', () => {
  it('leave prom-client unloaded when nothing can read them, and record and render when something can', () => {
    const off = metricsIn(false);
    expect(off.promClient).toBe(false);
    expect(off.body).toBe('');
    // Nor Node's fetch implementation (undici, 3 MB of heap), which an ES import of node:http loads.
    expect(off.undici).toBe(false);

    const on = metricsIn(true);
    expect(on.promClient).toBe(true);
    expect(on.body).toContain('sutura_http_request_duration_seconds_count{method="GET",route="/v1/videos",status="200"} 1');
    expect(on.body).toContain('sutura_job_duration_seconds_count{kind="video.process",outcome="completed"} 1');
    expect(on.body).toContain('sutura_upload_bytes_total 1234');
  }, 240_000);
});
