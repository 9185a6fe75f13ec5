/**
 * S7 against a local server imitating GitHub's contents API and raw host: the three URL
 * forms, other hosts refused, every quota at its boundary (checked from the listing before and
 * from the bytes during a download, so a file lying about its size is stopped), hostile names,
 * staging inside the target root (no EXDEV), atomic replace, user and project scope.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { installSkill, type InstallRequest } from '../../../plugins/skills/install/installer.js';
import { INSTALL_LIMITS, installEndpoints } from '../../../plugins/skills/install/limits.js';
import { parseSkillUrl } from '../../../plugins/skills/install/skill-url.js';
import { MAX_SKILL_FILE_BYTES } from '../../../plugins/skills/skill.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { startFakeGithub, type FakeGithub } from './fake-github.js';

let github: FakeGithub;
beforeAll(async () => {
  github = await startFakeGithub();
});
afterAll(() => github.close());
afterEach(() => removeTempDirs());

const MIB = 1024 * 1024;
const SKILL = '---\nname: lint-fix\ndescription: Fix lint errors.\n---\nRun the linter and fix what it reports.\n';
const TREE_URL = 'https://github.com/acme/skills/tree/main/skills/lint-fix';

function request(url: string, extra: Partial<InstallRequest> = {}): InstallRequest & { home: string; project: string } {
  const home = temp('install-home-');
  const project = temp('install-project-');
  return { url, scope: 'user', homeDir: home, projectRoot: project, endpoints: installEndpoints(github.env), home, project, ...extra };
}

const userRoot = (home: string): string => path.join(home, '.mewcode', 'skills');
const leftovers = (root: string): string[] => (existsSync(root) ? readdirSync(root).filter((name) => name.startsWith('.')) : []);

describe('URLs', () => {
  const endpoints = { githubApi: 'https://api.example', rawBase: 'https://raw.example' };
  test('github.com tree, raw.githubusercontent.com SKILL.md and skills.sh map to the contents API or the raw file', () => {
    expect(parseSkillUrl('https://github.com/acme/skills/tree/v1.2/skills/lint-fix', endpoints)).toEqual({ ok: true, source: { kind: 'folder', name: 'lint-fix', listUrl: 'https://api.example/repos/acme/skills/contents/skills/lint-fix?ref=v1.2' } });
    expect(parseSkillUrl('https://raw.githubusercontent.com/acme/skills/main/skills/lint-fix/SKILL.md', endpoints)).toEqual({ ok: true, source: { kind: 'file', name: 'lint-fix', fileUrl: 'https://raw.example/acme/skills/main/skills/lint-fix/SKILL.md' } });
    expect(parseSkillUrl('https://skills.sh/acme/skills/lint-fix', endpoints)).toEqual({ ok: true, source: { kind: 'folder', name: 'lint-fix', listUrl: 'https://api.example/repos/acme/skills/contents/skills/lint-fix' } });
    expect(parseSkillUrl('https://skills.sh/acme/lint-fix', endpoints)).toMatchObject({ ok: true, source: { listUrl: 'https://api.example/repos/acme/lint-fix/contents/skills/lint-fix' } });
  });

  test('other hosts, http, non-tree github URLs, raw URLs not ending in SKILL.md and climbing paths are refused', () => {
    expect(parseSkillUrl('https://gitlab.com/acme/skills/-/tree/main/x', endpoints)).toMatchObject({ ok: false, error: expect.stringContaining('only from github.com, raw.githubusercontent.com and skills.sh (not gitlab.com)') });
    expect(parseSkillUrl('http://github.com/acme/skills/tree/main/x', endpoints)).toMatchObject({ ok: false, error: expect.stringContaining('Only https URLs') });
    expect(parseSkillUrl('https://github.com/acme/skills', endpoints)).toMatchObject({ ok: false, error: expect.stringContaining('must name a folder') });
    expect(parseSkillUrl('https://raw.githubusercontent.com/acme/skills/main/README.md', endpoints)).toMatchObject({ ok: false, error: expect.stringContaining('must end in /SKILL.md') });
    expect(parseSkillUrl('https://github.com/acme/skills/tree/main/a/..%2F..%2Fetc', endpoints)).toMatchObject({ ok: false });
    expect(parseSkillUrl('not a url', endpoints)).toMatchObject({ ok: false, error: expect.stringContaining('is not a URL') });
  });
});

describe('installs', () => {
  test('a github tree folder with nested files, staged inside the target root, never in $TMPDIR', async () => {
    github.repos.set('acme/skills', {
      'skills/lint-fix/SKILL.md': SKILL,
      'skills/lint-fix/references/rules/eslint.md': '# Rules\n',
      'skills/lint-fix/scripts/fix.sh': '#!/bin/sh\nnpx eslint --fix .\n',
      'other/x.md': 'not part of the skill',
    });
    const stagings: string[] = [];
    const r = request(TREE_URL, { onStaging: (dir) => stagings.push(dir) });
    const before = process.env.TMPDIR;
    process.env.TMPDIR = path.join(r.home, 'no-such-tmp'); // a staging dir there would fail
    try {
      const outcome = await installSkill(r);
      expect(outcome).toEqual({ ok: true, report: { name: 'lint-fix', dir: path.join(userRoot(r.home), 'lint-fix'), files: 3, bytes: expect.any(Number), replaced: false, skipped: [], warnings: [] } });
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
    expect(path.dirname(stagings[0]!)).toBe(userRoot(r.home));
    expect(path.basename(stagings[0]!)).toMatch(/^\.install-lint-fix-/);
    const dir = path.join(userRoot(r.home), 'lint-fix');
    expect(readFileSync(path.join(dir, 'SKILL.md'), 'utf8')).toBe(SKILL);
    expect(readFileSync(path.join(dir, 'references', 'rules', 'eslint.md'), 'utf8')).toBe('# Rules\n');
    expect(existsSync(path.join(dir, 'scripts', 'fix.sh'))).toBe(true);
    expect(leftovers(userRoot(r.home))).toEqual([]);
  });

  test('a single raw SKILL.md (the seed could not) and a skills.sh URL; project scope installs in the project', async () => {
    github.repos.set('acme/single', { 'skills/one-file/SKILL.md': '---\nname: one-file\ndescription: One file.\n---\nBody.\n' });
    const raw = request('https://raw.githubusercontent.com/acme/single/main/skills/one-file/SKILL.md', { scope: 'project' });
    const outcome = await installSkill(raw);
    expect(outcome).toMatchObject({ ok: true, report: { name: 'one-file', dir: path.join(raw.project, '.mewcode', 'skills', 'one-file'), files: 1 } });
    github.repos.set('acme/tools', { 'skills/lint-fix/SKILL.md': SKILL });
    const sh = request('https://skills.sh/acme/tools/lint-fix');
    expect(await installSkill(sh)).toMatchObject({ ok: true, report: { name: 'lint-fix', files: 1 } });
    expect(github.requests).toContain('/repos/acme/tools/contents/skills/lint-fix');
  });

  test('the folder is named after the skill\'s own name', async () => {
    github.repos.set('acme/renamed', { 'pkg/SKILL.md': '---\nname: Real Name\ndescription: d\n---\nb\n' });
    const r = request('https://github.com/acme/renamed/tree/main/pkg');
    expect(await installSkill(r)).toMatchObject({ ok: true, report: { name: 'real-name', dir: path.join(userRoot(r.home), 'real-name') } });
  });

  test('a folder without SKILL.md, a SKILL.md that does not parse, a file URL given as folder: refused, nothing left behind', async () => {
    github.repos.set('acme/bad', { 'noskill/README.md': 'x', 'broken/SKILL.md': '---\nname: broken\n', 'file.md': 'x' });
    for (const [url, error] of [
      ['https://github.com/acme/bad/tree/main/noskill', 'the download has no SKILL.md at its top; it is not a skill folder'],
      ['https://github.com/acme/bad/tree/main/broken', 'its SKILL.md is not valid: the frontmatter starts with --- on line 1 but no line closes it (---)'],
      ['https://github.com/acme/bad/tree/main/file.md', 'is not a folder'],
      ['https://github.com/acme/missing/tree/main/x', 'not found (HTTP 404)'],
    ] as const) {
      const r = request(url);
      const outcome = await installSkill(r);
      expect(outcome).toMatchObject({ ok: false, error: expect.stringContaining(error) });
      expect(readdirSync(userRoot(r.home))).toEqual([]);
    }
  });

  test('a reinstall replaces the folder whole; a failed reinstall leaves the installed skill as it was', async () => {
    github.repos.set('acme/re', { 'skills/lint-fix/SKILL.md': SKILL, 'skills/lint-fix/old.md': 'old' });
    const r = request('https://github.com/acme/re/tree/main/skills/lint-fix');
    await installSkill(r);
    github.repos.set('acme/re', { 'skills/lint-fix/SKILL.md': SKILL.replace('Fix lint errors.', 'v2'), 'skills/lint-fix/new.md': 'new' });
    expect(await installSkill(r)).toMatchObject({ ok: true, report: { replaced: true } });
    const dir = path.join(userRoot(r.home), 'lint-fix');
    expect(readdirSync(dir).sort()).toEqual(['SKILL.md', 'new.md']);
    github.repos.set('acme/re', { 'skills/lint-fix/SKILL.md': SKILL, 'skills/lint-fix/huge.bin': Buffer.alloc(MIB + 1) });
    expect(await installSkill(r)).toMatchObject({ ok: false });
    expect(readFileSync(path.join(dir, 'SKILL.md'), 'utf8')).toContain('v2');
    expect(leftovers(userRoot(r.home))).toEqual([]);
  });
});

describe('quotas and hostile listings', () => {
  const installTree = async (repo: string, tree: Record<string, any>) => {
    github.repos.set(repo, tree);
    const r = request(`https://github.com/${repo}/tree/main/s`);
    return { outcome: await installSkill(r), root: userRoot(r.home) };
  };

  test(`a file of exactly ${INSTALL_LIMITS.maxFileBytes} bytes installs; one byte more is refused from the listing, before any download`, async () => {
    expect((await installTree('q/file-ok', { 's/SKILL.md': SKILL, 's/big.bin': Buffer.alloc(MIB) })).outcome).toMatchObject({ ok: true });
    github.requests.length = 0;
    const over = await installTree('q/file-over', { 's/SKILL.md': SKILL, 's/big.bin': Buffer.alloc(MIB + 1) });
    expect(over.outcome).toEqual({ ok: false, error: `big.bin is ${MIB + 1} bytes, over the ${MIB}-byte limit per file` });
    expect(github.requests.filter((r) => r.startsWith('/raw/'))).toEqual([]);
  });

  test('a file lying about its size (listing 10 bytes, sent chunked) is cut as soon as it passes the limit', async () => {
    const liar = await installTree('q/liar', { 's/SKILL.md': SKILL, 's/liar.bin': { body: Buffer.alloc(3 * MIB), statedSize: 10, chunked: true } });
    expect(liar.outcome).toEqual({ ok: false, error: `liar.bin sent more than ${MIB} bytes (over the limit, whatever size it claimed); refused` });
    expect(leftovers(liar.root)).toEqual([]);
    const header = await installTree('q/header', { 's/SKILL.md': SKILL, 's/h.bin': { body: Buffer.alloc(10), statedSize: 10, contentLength: MIB + 1 } });
    expect(header.outcome).toMatchObject({ ok: false, error: `h.bin is ${MIB + 1} bytes, over the ${MIB}-byte limit` });
  });

  test(`${INSTALL_LIMITS.maxFiles} files install; ${INSTALL_LIMITS.maxFiles + 1} are refused`, async () => {
    const tree = (count: number) => Object.fromEntries([['s/SKILL.md', SKILL], ...Array.from({ length: count - 1 }, (_, i) => [`s/f${i}.md`, 'x'])]);
    expect((await installTree('q/count-ok', tree(64))).outcome).toMatchObject({ ok: true, report: { files: 64 } });
    expect((await installTree('q/count-over', tree(65))).outcome).toEqual({ ok: false, error: 'the skill has more than 64 files; refused' });
    // Spread over folders, the count still holds.
    const spread = Object.fromEntries([['s/SKILL.md', SKILL], ...Array.from({ length: 64 }, (_, i) => [`s/d${i % 4}/f${i}.md`, 'x'])]);
    expect((await installTree('q/count-spread', spread)).outcome).toEqual({ ok: false, error: 'the skill has more than 64 files; refused' });
  });

  test(`exactly ${INSTALL_LIMITS.maxTotalBytes} bytes in all install; one byte more is refused`, async () => {
    const fill = (extra: number) => {
      const skillBytes = Buffer.byteLength(SKILL);
      const tree: Record<string, unknown> = { 's/SKILL.md': SKILL };
      for (let i = 0; i < 7; i++) tree[`s/part${i}.bin`] = Buffer.alloc(MIB);
      tree['s/last.bin'] = Buffer.alloc(MIB - skillBytes + extra);
      return tree;
    };
    expect((await installTree('q/total-ok', fill(0))).outcome).toMatchObject({ ok: true, report: { bytes: 8 * MIB } });
    expect((await installTree('q/total-over', fill(1))).outcome).toEqual({ ok: false, error: `the skill is more than ${8 * MIB} bytes in all; refused` });
    // Lying across files: each listed small, the total caught during the downloads.
    const lying: Record<string, unknown> = { 's/SKILL.md': SKILL };
    for (let i = 0; i < 9; i++) lying[`s/p${i}.bin`] = { body: Buffer.alloc(MIB - 1024), statedSize: 1, chunked: true };
    const outcome = (await installTree('q/total-lying', lying)).outcome;
    expect(outcome).toMatchObject({ ok: false, error: expect.stringContaining(`more than ${8 * MIB} bytes in all`) });
  });

  test(`folders ${INSTALL_LIMITS.maxDepth} levels deep install; ${INSTALL_LIMITS.maxDepth + 1} are refused`, async () => {
    expect((await installTree('q/depth-ok', { 's/SKILL.md': SKILL, 's/a/b/c/d/f.md': 'x' })).outcome).toMatchObject({ ok: true });
    expect((await installTree('q/depth-over', { 's/SKILL.md': SKILL, 's/a/b/c/d/e/f.md': 'x' })).outcome).toEqual({ ok: false, error: 'the folder a/b/c/d/e is nested more than 4 levels deep; refused' });
  });

  test('hostile names in a listing (../, absolute, separators) are refused and nothing lands outside', async () => {
    for (const name of ['../escape.md', '..', '/etc/passwd', 'a/../../b', 'evil\\..\\x']) {
      github.repos.set('q/hostile', { 's/SKILL.md': SKILL });
      github.extraEntries.set('q/hostile:s', [{ name, path: `s/${name}`, type: 'file', size: 1, download_url: `${github.url}/raw/q/hostile/main/s/SKILL.md` }]);
      const r = request('https://github.com/q/hostile/tree/main/s');
      const outcome = await installSkill(r);
      expect(outcome).toMatchObject({ ok: false, error: expect.stringContaining('would land outside the skill\'s folder; refused') });
      expect(readdirSync(userRoot(r.home))).toEqual([]);
      expect(existsSync(path.join(userRoot(r.home), '..', 'escape.md'))).toBe(false);
    }
    github.extraEntries.clear();
  });

  test('a folder or file whose name merely begins with two dots (`..data`, `...`) is part of the skill, installed in place', async () => {
    github.repos.set('q/dots', { 's/SKILL.md': SKILL, 's/..data/notes.md': 'notes', 's/.../x.md': 'x', 's/..readme.md': 'r' });
    const r = request('https://github.com/q/dots/tree/main/s');
    expect(await installSkill(r)).toMatchObject({ ok: true, report: { files: 4 } });
    const dir = path.join(userRoot(r.home), 'lint-fix');
    expect(readFileSync(path.join(dir, '..data', 'notes.md'), 'utf8')).toBe('notes');
    expect(readFileSync(path.join(dir, '...', 'x.md'), 'utf8')).toBe('x');
    expect(readFileSync(path.join(dir, '..readme.md'), 'utf8')).toBe('r');
  });

  test('the whole install has a deadline: a server that stalls past it fails the install, nothing left behind', async () => {
    github.repos.set('q/slow', { 's/SKILL.md': SKILL, 's/slow.md': { body: 'slow body', stallMs: 5_000 } });
    const r = request('https://github.com/q/slow/tree/main/s', { limits: { ...INSTALL_LIMITS, timeoutMs: 300 } });
    const started = Date.now();
    expect(await installSkill(r)).toEqual({ ok: false, error: 'slow.md: the install took too long or was cancelled' });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(readdirSync(userRoot(r.home))).toEqual([]);
    expect(INSTALL_LIMITS.timeoutMs).toBe(60_000);
  });

  test('links and submodules in a listing are not installed, and the report says so', async () => {
    github.repos.set('q/links', { 's/SKILL.md': SKILL });
    github.extraEntries.set('q/links:s', [{ name: 'shortcut', type: 'symlink', size: 10 }, { name: 'vendored', type: 'submodule', size: 0 }]);
    const r = request('https://github.com/q/links/tree/main/s');
    expect(await installSkill(r)).toMatchObject({ ok: true, report: { files: 1, skipped: ['shortcut (symlink)', 'vendored (submodule)'] } });
    expect(readdirSync(path.join(userRoot(r.home), 'lint-fix'))).toEqual(['SKILL.md']);
    github.extraEntries.clear();
  });

  test('a download URL on another origin is refused', async () => {
    github.repos.set('q/origin', { 's/SKILL.md': SKILL });
    github.extraEntries.set('q/origin:s', [{ name: 'x.md', type: 'file', size: 1, download_url: 'http://127.0.0.2:9/x.md' }]);
    const outcome = await installSkill(request('https://github.com/q/origin/tree/main/s'));
    expect(outcome).toMatchObject({ ok: false, error: 'x.md: refusing to download from http://127.0.0.2:9' });
    github.extraEntries.clear();
  });
});

describe('review: what a hostile server can still try', () => {
  const installTree = async (repo: string, tree: Record<string, any>) => {
    github.repos.set(repo, tree);
    const r = request(`https://github.com/${repo}/tree/main/s`);
    return { outcome: await installSkill(r), root: userRoot(r.home) };
  };

  test(`a SKILL.md of exactly ${MAX_SKILL_FILE_BYTES} bytes installs; one byte more is refused (the catalog would skip it), nothing left behind`, async () => {
    const sized = (size: number): string => SKILL + 'x'.repeat(size - Buffer.byteLength(SKILL));
    expect((await installTree('r/skill-ok', { 's/SKILL.md': sized(MAX_SKILL_FILE_BYTES) })).outcome).toMatchObject({ ok: true });
    const over = await installTree('r/skill-over', { 's/SKILL.md': sized(MAX_SKILL_FILE_BYTES + 1) });
    expect(over.outcome).toEqual({ ok: false, error: `its SKILL.md is ${MAX_SKILL_FILE_BYTES + 1} bytes, over the ${MAX_SKILL_FILE_BYTES}-byte limit` });
    expect(readdirSync(over.root)).toEqual([]);
  });

  test(`${INSTALL_LIMITS.maxFiles} folders install; ${INSTALL_LIMITS.maxFiles + 1} (empty ones) are refused`, async () => {
    const folders = (repo: string, count: number) => {
      github.repos.set(repo, { 's/SKILL.md': SKILL });
      github.extraEntries.set(`${repo}:s`, Array.from({ length: count }, (_, i) => ({ name: `d${i}`, type: 'dir', url: `${github.url}/repos/${repo}/contents/s/d${i}?ref=main` })));
      for (let i = 0; i < count; i++) github.extraEntries.set(`${repo}:s/d${i}`, []);
      const r = request(`https://github.com/${repo}/tree/main/s`);
      return installSkill(r);
    };
    expect(await folders('r/dirs-ok', INSTALL_LIMITS.maxFiles)).toMatchObject({ ok: true, report: { files: 1 } });
    github.requests.length = 0;
    expect(await folders('r/dirs-over', INSTALL_LIMITS.maxFiles + 1)).toEqual({ ok: false, error: `the skill has more than ${INSTALL_LIMITS.maxFiles} folders; refused` });
    expect(github.requests.filter((r) => r.includes('/contents/s/d'))).toHaveLength(INSTALL_LIMITS.maxFiles);
    github.extraEntries.clear();
  });

  test('a redirect to another origin is refused; a redirect within the allowed origins is followed', async () => {
    const stay = await installTree('r/redirect-ok', { 's/SKILL.md': { body: '', redirectTo: `${github.url}/raw/r/redirect-ok/main/t/SKILL.md` }, 't/SKILL.md': SKILL });
    expect(stay.outcome).toMatchObject({ ok: true, report: { name: 'lint-fix' } });
    const away = await installTree('r/redirect-away', { 's/SKILL.md': { body: '', redirectTo: 'http://127.0.0.2:9/SKILL.md' } });
    expect(away.outcome).toEqual({ ok: false, error: 'SKILL.md: refusing to download from http://127.0.0.2:9' });
    expect(readdirSync(away.root)).toEqual([]);
  });

  test('a project install refuses a .mewcode (or .mewcode/skills) that links outside the project; nothing is written there', async () => {
    github.repos.set('r/link', { 's/SKILL.md': SKILL });
    for (const link of ['.mewcode', path.join('.mewcode', 'skills')]) {
      const r = request('https://github.com/r/link/tree/main/s', { scope: 'project' });
      const outside = temp('install-outside-');
      mkdirSync(path.dirname(path.join(r.project, link)), { recursive: true });
      symlinkSync(outside, path.join(r.project, link));
      const outcome = await installSkill(r);
      expect(outcome).toEqual({ ok: false, error: expect.stringMatching(/^the project's skills folder .* leads outside the project \(to .*\); refused$/) });
      expect(readdirSync(outside)).toEqual([]);
    }
  });
});
