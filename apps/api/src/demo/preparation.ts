/**
 * What the demo is still making after the server answers (its videos, its months of history), so
 * that the dashboards can say "the demo is being prepared" instead of showing empty numbers. Kept
 * in the process that makes it: the demo runs on a single embedded installation
 * (docs/dashboard.md, "While the demo is being prepared").
 */
export interface DemoPreparationState {
  preparing: boolean;
  /** How far, in percent (0 to 100); 100 when nothing is being prepared. */
  progress: number;
}

export interface DemoPart {
  /** `done` of `total` steps of this part are made. */
  progress(done: number, total: number): void;
  /** The part is over, made or given up (a failure is logged where it happens). */
  end(): void;
}

export function createDemoPreparation() {
  const parts = new Set<{ fraction: number; over: boolean }>();
  return {
    /** A part begins: from now on the demo is being prepared until every part has ended. */
    begin(): DemoPart {
      const part = { fraction: 0, over: false };
      parts.add(part);
      return {
        progress(done, total) {
          if (total > 0) part.fraction = Math.min(1, Math.max(part.fraction, done / total));
        },
        end() {
          part.over = true;
          part.fraction = 1;
        },
      };
    },
    state(): DemoPreparationState {
      const all = [...parts];
      if (all.every((p) => p.over)) return { preparing: false, progress: 100 };
      // Each part weighs the same; a part never reads as finished before it has ended.
      const made = all.reduce((sum, p) => sum + (p.over ? 1 : Math.min(p.fraction, 0.99)), 0);
      return { preparing: true, progress: Math.floor((made / all.length) * 100) };
    },
  };
}
export type DemoPreparation = ReturnType<typeof createDemoPreparation>;
