import { existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * No two modules of the server (or of the shared domain) import each other, directly or through
 * others: a circle loads in an order that depends on who came first, and is cut by moving what
 * both need to a third file. Static imports and re-exports count, type-only ones too (a circle of
 * types is the same knot); a lazy `import()` does not, as it runs once both are loaded.
 */
const root = path.resolve(import.meta.dirname, '..');

/** `import … from './x.ts'`, `import './x.ts'`, `export … from './x.ts'`, over several lines too. */
const STATIC_IMPORT = /(?:^|[\n;])\s*(?:import|export)\s+(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;

function resolveRelative(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.js`, path.join(base, 'index.ts')].find((f) => existsSync(f) && statSync(f).isFile());
}

/** Each module of the folder with the modules of the folder it imports. */
function importGraph(folder: string): Map<string, string[]> {
  const files = readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(?:ts|js)$/.test(f) && !f.endsWith('.d.ts') && !f.includes('node_modules'))
    .map((f) => path.join(folder, f));
  const inFolder = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      const target = resolveRelative(file, specifier!);
      if (target && inFolder.has(target)) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Every circle of the graph (its strongly connected parts, Tarjan), as paths relative to `folder`. */
function importCycles(folder: string): string[][] {
  const graph = importGraph(folder);
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    low.set(file, order.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file)!) {
      if (!order.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, order.get(next)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const part: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      part.push(path.relative(folder, member));
    } while (member !== file);
    if (part.length > 1 || graph.get(file)!.includes(file)) cycles.push(part.sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return cycles;
}

const fixture = mkdtempSync(path.join(tmpdir(), 'sutura-import-cycles-'));
afterAll(() => rmSync(fixture, { recursive: true, force: true }));

describe('import cycles', () => {
  it('finds none among the modules of the server', () => {
    expect(importCycles(path.join(root, 'apps/api/src'))).toEqual([]);
  });

  it('finds none among the modules of the shared domain', () => {
    expect(importCycles(path.join(root, 'packages/domain/src'))).toEqual([]);
  });

  it('finds a circle planted through a re-export, a multi-line import and a type-only import', () => {
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(fixture, file)), { recursive: true });
      writeFileSync(path.join(fixture, file), text);
    };
    write('a.ts', "export { b } from './videos/b.ts';\nexport const a = 1;\n");
    write('videos/b.ts', "import {\n  c,\n  other,\n} from '../c.ts';\nexport const b = c + other;\n");
    write('c.ts', "import type { A } from './a';\nimport { leaf } from './leaf.ts';\nexport const c = leaf;\nexport const other: A = 2;\n");
    write('leaf.ts', "import { readFileSync } from 'node:fs';\nexport const leaf = readFileSync.length;\n");
    // Two modules joined by a lazy import only: no circle.
    write('lazy-a.ts', "import { later } from './lazy-b.ts';\nexport const run = later;\n");
    write('lazy-b.ts', "export const later = () => import('./lazy-a.ts');\n");
    // A module that imports itself is a circle too.
    write('self.ts', "import './self.ts';\n");
    expect(importCycles(fixture)).toEqual(expect.arrayContaining([['a.ts', 'c.ts', path.join('videos', 'b.ts')], ['self.ts']]));
    expect(importCycles(fixture)).toHaveLength(2);
  });
});
