import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Every relative link of README.md and docs/ leads somewhere: the file exists and, for a link
 * with `#anchor` to a Markdown file, a heading of that file has that anchor as GitHub makes it.
 * And the README stays a page a newcomer reads in five minutes.
 */
const root = path.resolve(import.meta.dirname, '..');
const README_MAX_BYTES = 12_000;

/** GitHub's anchor of a heading's text (github-slugger): lowercase, punctuation and symbols out, letters with their accents kept, each space a dash. */
function githubSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The text GitHub renders for a heading's Markdown: code, links, images, emphasis and tags reduced to their words. */
function headingText(markdown: string): string {
  return markdown
    .replace(/\s+#+\s*$/, '') // closing sequence of an ATX heading
    .replace(/^#+\s*$/, '')
    .replace(/(`+)(.*?)\1/g, '$2')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/!?\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/(^|[^\p{L}\p{N}])_+([^_]+?)_+(?=[^\p{L}\p{N}]|$)/gu, '$1$2')
    .trim();
}

/** The lines of a Markdown file with fenced code blocks blanked (line numbers kept). */
function withoutFences(markdown: string): string[] {
  const lines = markdown.split('\n');
  let fence: string | null = null;
  return lines.map((line) => {
    const open = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence === null) {
      if (open) {
        fence = open[1]!;
        return '';
      }
      return line;
    }
    if (open && open[1]![0] === fence[0] && open[1]!.length >= fence.length && line.trim() === open[1]) fence = null;
    return '';
  });
}

/** Every anchor a Markdown file offers: its headings' slugs (duplicates numbered -1, -2 … as GitHub does) and the ids and names of its HTML tags. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const occurrences = new Map<string, number>();
  const add = (text: string) => {
    const base = githubSlug(headingText(text));
    let slug = base;
    while (occurrences.has(slug)) {
      const n = occurrences.get(base)! + 1;
      occurrences.set(base, n);
      slug = `${base}-${n}`;
    }
    occurrences.set(slug, 0);
    anchors.add(slug);
  };
  const lines = withoutFences(markdown);
  lines.forEach((line, i) => {
    const atx = /^ {0,3}#{1,6}(?:\s+(.*))?$/.exec(line);
    if (atx) add(atx[1] ?? '');
    else if (i > 0 && /^ {0,3}(=+|-+)\s*$/.test(line) && lines[i - 1]!.trim() !== '' && !/^ {0,3}([-*+]|#|>|\|)/.test(lines[i - 1]!))
      add(lines[i - 1]!.trim());
    for (const m of line.matchAll(/<[a-z][^>]*?\s(?:id|name)\s*=\s*["']([^"']+)["']/gi)) anchors.add(m[1]!);
  });
  return anchors;
}

interface Link {
  line: number;
  index: number;
  target: string;
}

/** The link targets of a Markdown file: inline links and images, reference definitions, and full or collapsed references (an undefined label is reported as such). */
function linksOf(markdown: string): Link[] {
  // Fenced blocks blanked, then inline code spans (newlines kept, so that line numbers hold).
  const text = withoutFences(markdown)
    .join('\n')
    .replace(/(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g, (span) => span.replace(/[^\n]/g, ' '));
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  const links: Link[] = [];
  const labels = new Set<string>();
  const normalise = (label: string) => label.trim().replace(/\s+/g, ' ').toLowerCase();

  for (const m of text.matchAll(/^ {0,3}\[([^\]]+)\]:[ \t]*(?:\n[ \t]*)?(<[^>\n]*>|\S+)/gm)) {
    labels.add(normalise(m[1]!));
    links.push({ line: lineOf(m.index), index: m.index, target: m[2]!.replace(/^<|>$/g, '') });
  }
  const bracket = String.raw`\[((?:[^\[\]\\]|\\.|\[(?:[^\[\]\\]|\\.)*\])*)\]`;
  const destination = String.raw`(<[^>\n]*>|(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))*)`;
  const inline = new RegExp(String.raw`!?${bracket}\(\s*${destination}(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)`, 'g');
  for (const m of text.matchAll(inline)) links.push({ line: lineOf(m.index), index: m.index, target: m[2]!.replace(/^<|>$/g, '') });
  const reference = new RegExp(String.raw`!?${bracket}\[([^\]]*)\](?!\()`, 'g');
  for (const m of text.matchAll(reference)) {
    const label = normalise(m[2] || m[1]!);
    if (!labels.has(label)) links.push({ line: lineOf(m.index), index: m.index, target: `[undefined reference: ${label}]` });
  }
  return links.sort((a, b) => a.index - b.index);
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/** Why a link of `file` (a path relative to `base`) does not resolve, or null when it does. */
function brokenReason(base: string, file: string, target: string, anchorCache = new Map<string, Set<string>>()): string | null {
  if (target.startsWith('[undefined reference')) return 'no definition for this reference';
  if (isExternal(target)) return null;
  const hashAt = target.indexOf('#');
  const rawPath = (hashAt === -1 ? target : target.slice(0, hashAt)).replace(/\?.*$/, '');
  const anchor = hashAt === -1 ? null : target.slice(hashAt + 1);
  let resolved: string;
  try {
    const decoded = decodeURI(rawPath);
    resolved =
      decoded === ''
        ? path.join(base, file)
        : decoded.startsWith('/')
          ? path.join(base, decoded)
          : path.join(base, path.dirname(file), decoded);
  } catch {
    return 'malformed address';
  }
  let stat;
  try {
    stat = statSync(resolved);
  } catch {
    return `no file ${path.relative(base, resolved) || '.'}`;
  }
  if (anchor === null || anchor === '' || stat.isDirectory() || !/\.(md|markdown)$/i.test(resolved)) return null;
  let anchors = anchorCache.get(resolved);
  if (!anchors) {
    anchors = anchorsOf(readFileSync(resolved, 'utf8'));
    anchorCache.set(resolved, anchors);
  }
  let wanted: string;
  try {
    wanted = decodeURIComponent(anchor);
  } catch {
    return 'malformed anchor';
  }
  return anchors.has(wanted) ? null : `no heading #${wanted} in ${path.relative(base, resolved)}`;
}

/** Every broken relative link of the given Markdown files, as "file:line target (reason)". */
function brokenLinks(base: string, files: string[]): string[] {
  const cache = new Map<string, Set<string>>();
  const broken: string[] = [];
  for (const file of files) {
    for (const link of linksOf(readFileSync(path.join(base, file), 'utf8'))) {
      const reason = brokenReason(base, file, link.target, cache);
      if (reason) broken.push(`${file}:${link.line} ${link.target} (${reason})`);
    }
  }
  return broken;
}

function markdownFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(rel);
    return entry.name.endsWith('.md') ? [rel] : [];
  });
}

describe('GitHub anchors of headings', () => {
  it('lowercases, drops punctuation but - and _, keeps accents, makes each space a dash', () => {
    expect(githubSlug('Quick start')).toBe('quick-start');
    expect(githubSlug("Single sign-on: Pro Santé Connect and the hospital's identity provider")).toBe(
      'single-sign-on-pro-santé-connect-and-the-hospitals-identity-provider',
    );
    expect(githubSlug('11. Signing in with a provider proves what it says, or creates nothing')).toBe(
      '11-signing-in-with-a-provider-proves-what-it-says-or-creates-nothing',
    );
    expect(githubSlug('Bland–Altman (Bland & Altman 1986, 1999)')).toBe('blandaltman-bland--altman-1986-1999');
    expect(githubSlug('snake_case and kebab-case')).toBe('snake_case-and-kebab-case');
    expect(githubSlug('Préparation — Étapes')).toBe('préparation--étapes');
  });

  it('reads a heading as GitHub renders it, numbers duplicates, and ignores fenced code', () => {
    const anchors = anchorsOf(
      [
        '# The `npm start` command',
        '## Notes',
        '### Notes',
        '## Notes ##',
        '## [Linked](other.md) _emphasis_ **strong**',
        'Setext heading',
        '--------------',
        '```sh',
        '# a shell comment, not a heading',
        '```',
        '<a id="kept-anchor"></a>',
      ].join('\n'),
    );
    expect([...anchors].sort()).toEqual(
      ['the-npm-start-command', 'notes', 'notes-1', 'notes-2', 'linked-emphasis-strong', 'setext-heading', 'kept-anchor'].sort(),
    );
    expect(anchors.has('a-shell-comment-not-a-heading')).toBe(false);
  });
});

describe('the link checker', () => {
  const sample = mkdtempSync(path.join(tmpdir(), 'sutura-doc-links-'));
  afterAll(() => rmSync(sample, { recursive: true, force: true }));
  mkdirSync(path.join(sample, 'docs'));
  writeFileSync(path.join(sample, 'docs/target.md'), '# Target\n\n## Pro Santé Connect\n\n## Backups\n\n## Backups\n');
  writeFileSync(
    path.join(sample, 'README.md'),
    [
      '# Sample',
      '',
      'Good: [target](docs/target.md), [anchor](docs/target.md#pro-santé-connect),',
      '[encoded](docs/target.md#pro-sant%C3%A9-connect), [second](docs/target.md#backups-1), [self](#sample),',
      '[site](https://example.org/missing.md), [mail](mailto:a@b.c), [folder](docs/), [ref][good], [collapsed][].',
      '',
      'Bad: [gone](docs/gone.md), [no anchor](docs/target.md#nowhere), [third](docs/target.md#backups-2),',
      '[self](#missing), [bad ref][missing-label], ![picture](docs/missing.png), [refgone][gone-def].',
      '',
      'In code, not links: `[x](docs/gone.md)`.',
      '',
      '```md',
      '[y](docs/gone.md)',
      '```',
      '',
      '[good]: docs/target.md#backups',
      '[collapsed]: docs/target.md',
      '[gone-def]: docs/nothing.md',
    ].join('\n'),
  );

  it('finds every broken link and only those', () => {
    expect(brokenLinks(sample, ['README.md'])).toEqual([
      'README.md:7 docs/gone.md (no file docs/gone.md)',
      'README.md:7 docs/target.md#nowhere (no heading #nowhere in docs/target.md)',
      'README.md:7 docs/target.md#backups-2 (no heading #backups-2 in docs/target.md)',
      'README.md:8 #missing (no heading #missing in README.md)',
      'README.md:8 [undefined reference: missing-label] (no definition for this reference)',
      'README.md:8 docs/missing.png (no file docs/missing.png)',
      'README.md:18 docs/nothing.md (no file docs/nothing.md)',
    ]);
  });

  it('resolves a link from the folder of the file that holds it', () => {
    writeFileSync(path.join(sample, 'docs/from-docs.md'), '[up](../README.md#sample) [wrong](README.md)\n');
    expect(brokenLinks(sample, ['docs/from-docs.md'])).toEqual(['docs/from-docs.md:1 README.md (no file docs/README.md)']);
  });
});

describe('the documentation of this repository', () => {
  const files = ['README.md', ...markdownFiles('docs')];

  it('has only relative links that resolve, anchors included', () => {
    expect(files.length).toBeGreaterThan(1);
    expect(brokenLinks(root, files)).toEqual([]);
  });

  it(`keeps README.md under ${README_MAX_BYTES} bytes: a page a newcomer reads in five minutes`, () => {
    expect(statSync(path.join(root, 'README.md')).size).toBeLessThan(README_MAX_BYTES);
  });
});
