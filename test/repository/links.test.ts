/**
 * The guides' links hold: every relative link in README.md, the guides and decision records under
 * docs/, and the README of each workspace, the bench and test/ names a file or folder that is in
 * the repository, and every `#anchor` a heading of the page it points into, as GitHub makes a
 * heading's anchor (github-slugger is GitHub's own algorithm, numbering repeats -1, -2, …).
 * Links to other sites are not fetched.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
/** The folders whose README says what they hold: every npm workspace, the bench and the suites under test/. */
const FOLDERS = [...(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces, 'bench', 'test'];
const FOLDER_READMES = FOLDERS.map((folder) => `${folder}/README.md`);
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name.split(sep).join('/')}`)
    .sort(),
  ...FOLDER_READMES.filter((page) => existsSync(join(ROOT, page))),
];

/** The page without fenced code blocks and inline code, where a bracket is no link. */
function prose(markdown: string): string {
  return markdown.replace(/^([ \t]*)(```|~~~)[\s\S]*?^\1\2[ \t]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Every link target of the page: `[text](target)` and `![alt](target)`. */
function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map(([, target]) => target!);
}

/** The anchors GitHub gives the page's headings, in order. */
function headingAnchors(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const headings = markdown
    .replace(/^([ \t]*)(```|~~~)[\s\S]*?^\1\2[ \t]*$/gm, '')
    .split('\n')
    .flatMap((line) => /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.slice(1) ?? []);
  // GitHub slugs the heading as it renders it: code spans and emphasis lose their marks.
  return new Set(headings.map((heading) => slugger.slug(heading.replace(/[`*_]/g, ''))));
}

const anchorsOf = new Map<string, Set<string>>();
function anchors(file: string): Set<string> {
  if (!anchorsOf.has(file)) anchorsOf.set(file, headingAnchors(readFileSync(file, 'utf8')));
  return anchorsOf.get(file)!;
}

/** What is wrong with one link of `page`, or undefined when it resolves. */
function brokenLink(page: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
  const [path = '', anchor] = target.split('#') as [string, string | undefined];
  const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURIComponent(path));
  if (relative(ROOT, file).startsWith('..')) return `${target} leaves the repository`;
  if (!existsSync(file)) return `${target}: no ${relative(ROOT, file)}`;
  if (anchor === undefined) return undefined;
  if (!statSync(file).isFile() || !file.endsWith('.md')) return `${target}: an anchor into ${relative(ROOT, file)}, which has no headings`;
  return anchors(file).has(anchor) ? undefined : `${target}: ${relative(ROOT, file)} has no heading with the anchor #${anchor}`;
}

describe('the links of the README and the guides', () => {
  it('are found on every page (the check reads links at all)', () => {
    for (const page of PAGES) expect(linkTargets(readFileSync(join(ROOT, page), 'utf8')).length, page).toBeGreaterThan(0);
    expect(PAGES).toEqual(
      expect.arrayContaining(['README.md', 'docs/design.md', 'docs/on-call.md', 'docs/decisions/README.md', 'lambda/README.md']),
    );
  });

  it('include a README for every workspace, the bench and test/', () => {
    expect(FOLDER_READMES.filter((page) => !existsSync(join(ROOT, page)))).toEqual([]);
  });

  it.each(PAGES)('%s: every relative link and #anchor resolves', (page) => {
    const broken = linkTargets(readFileSync(join(ROOT, page), 'utf8')).flatMap((target) => brokenLink(page, target) ?? []);
    expect(broken).toEqual([]);
  });

  it('tells a broken anchor and a missing file from a good link, with GitHub’s anchors', () => {
    expect(brokenLink('README.md', 'docs/on-call.md#alarms')).toBeUndefined();
    expect(brokenLink('docs/on-call.md', '#rolling-back-a-release')).toBeUndefined();
    expect(brokenLink('docs/on-call.md', '#rolling-back')).toMatch(/no heading with the anchor #rolling-back$/);
    expect(brokenLink('docs/on-call.md', 'nowhere.md')).toBe('nowhere.md: no docs/nowhere.md');
    expect(brokenLink('README.md', 'https://docs.aws.amazon.com/ses/')).toBeUndefined();
    // GitHub numbers a repeated heading, drops code marks and punctuation, keeps non-ASCII letters.
    expect([...headingAnchors('# A\n## A\n### `npm run smoke`: the check\n## Één stap')]).toEqual([
      'a',
      'a-1',
      'npm-run-smoke-the-check',
      'één-stap',
    ]);
  });
});
