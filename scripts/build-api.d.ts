/** Types of scripts/build-api.js, for the TypeScript that imports it (the tests, e2e/run.ts, the benchmarks). */
export function buildApi(options?: {
  force?: boolean;
  dist?: string;
  log?: (line: string) => void;
}): Promise<{ built: boolean; missing?: boolean }>;
