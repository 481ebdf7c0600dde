import { readFileSync, realpathSync, statSync } from 'node:fs';
import { registerHooks } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Node looks up the package of every `.js` file an ES module imports to learn its format, and at
 * each lookup parses that package's whole `exports` map again (the package reader spreads a lazily
 * parsed object); so does every import of a package by name. drizzle-orm's map is 179 KB and the
 * server resolves some 400 of its files and imports it from a hundred of its own: over a second
 * of processor time and 80 MB of garbage at every start. Two shortcuts, nothing else changed:
 * - a relative `.js` import inside an installed ES module package is a module, known from the
 *   package's `type`, read once per package;
 * - an import by package name resolves the same from every file of one folder (Node looks for
 *   `node_modules` from the folder up): Node's answer is kept per folder.
 */
const typeByFolder = new Map<string, string | null>();

/** The `type` of the package a folder belongs to (`module`, `commonjs`), or null when unsure. */
function packageType(folder: string): string | null {
  const known = typeByFolder.get(folder);
  if (known !== undefined) return known;
  let type: string | null;
  let manifest: string | undefined;
  try {
    manifest = readFileSync(path.join(folder, 'package.json'), 'utf8');
  } catch {
    manifest = undefined;
  }
  if (manifest !== undefined) {
    try {
      const parsed = JSON.parse(manifest) as { type?: unknown };
      type = parsed.type === 'module' ? 'module' : parsed.type === undefined || parsed.type === 'commonjs' ? 'commonjs' : null;
    } catch {
      type = null;
    }
  } else {
    const parent = path.dirname(folder);
    // Past the package's folder (its node_modules) Node's answer depends on more than a type.
    type = parent === folder || path.basename(parent) === 'node_modules' ? null : packageType(parent);
  }
  typeByFolder.set(folder, type);
  return type;
}

/** What Node's resolver would answer for `specifier` imported from `parentURL`, when this can tell; else null. */
export function resolveInPackage(specifier: string, parentURL: string | undefined): { url: string; format: 'module' } | null {
  if (!parentURL?.startsWith('file://') || !parentURL.includes('/node_modules/')) return null;
  if (!(specifier.startsWith('./') || specifier.startsWith('../')) || !specifier.endsWith('.js')) return null;
  // Percent-encoded characters, queries and fragments have rules of their own: Node decides.
  if (/[%?#\\]/.test(specifier)) return null;
  const target = fileURLToPath(new URL(specifier, parentURL));
  if (!target.includes(`${path.sep}node_modules${path.sep}`)) return null;
  if (!statSync(target, { throwIfNoEntry: false })?.isFile()) return null;
  const real = realpathSync(target);
  // Only ES module packages: a `.js` file of a package without a type may be either, Node detects it.
  if (packageType(path.dirname(real)) !== 'module') return null;
  return { url: pathToFileURL(real).href, format: 'module' };
}

/** A package imported by name (`drizzle-orm`, `@sutura/domain/roles`), not a path, URL, builtin or `#import`. */
function byPackageName(specifier: string): boolean {
  return /^(?:@[\w.-]+\/)?[\w.-]+(?:\/[\w./-]*)?$/.test(specifier) && !specifier.startsWith('.');
}

/** Installs the shortcuts for this process's imports (the server's entry calls it first). */
export function registerPackageFormatShortcut(): void {
  const byFolder = new Map<string, { url: string; format?: string | null | undefined }>();
  registerHooks({
    resolve(specifier, context, nextResolve) {
      // `import` only: `require` (which these hooks see too) resolves by rules of its own.
      if (!context.conditions.includes('import')) return nextResolve(specifier, context);
      const known = resolveInPackage(specifier, context.parentURL);
      if (known) return { ...known, shortCircuit: true };
      const parent = context.parentURL;
      if (!parent?.startsWith('file://') || !byPackageName(specifier) || Object.keys(context.importAttributes ?? {}).length > 0) {
        return nextResolve(specifier, context);
      }
      const key = `${parent.slice(0, parent.lastIndexOf('/'))}\0${specifier}\0${context.conditions.join(',')}`;
      const kept = byFolder.get(key);
      if (kept) return { ...kept, shortCircuit: true };
      const resolved = nextResolve(specifier, context);
      if (resolved.url.startsWith('file://')) byFolder.set(key, { url: resolved.url, format: resolved.format });
      return resolved;
    },
  });
}
