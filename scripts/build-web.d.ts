/** Types of scripts/build-web.js, for the TypeScript that calls it (tests, e2e/run.ts). */
export function holdLock(file: string, onWait?: (holder: number) => void): Promise<() => void>;
export function buildWeb(options?: { force?: boolean; dist?: string; log?: (line: string) => void }): Promise<{ built: boolean }>;
