/**
 * S1, S2, K2: the corpus of skill folders (test/fixtures/skills/corpus) loads as specified —
 * frontmatter variants, CRLF, BOM, nested files, scripts, long descriptions, bad names — and the
 * roots' precedence, trust for project scripts, and every limit at its boundary.
 */
import { chmodSync, cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadCatalog, type SkillCatalog } from '../../../plugins/skills/catalog.js';
import { Parser } from 'yaml';
import { frontmatterReady, normaliseText, parseFrontmatter, splitFrontmatter } from '../../../plugins/skills/frontmatter.js';
import { readdirSync, readFileSync } from 'node:fs';
import { skillRoots } from '../../../plugins/skills/roots.js';
import { MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, MAX_SKILL_FILE_BYTES, parseSkill, splitToolList } from '../../../plugins/skills/skill.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';

const CORPUS = path.resolve('test/fixtures/skills/corpus');

beforeAll(() => frontmatterReady());
afterEach(() => removeTempDirs());

function skill(name: string, body = 'Body.\n', extra = ''): string {
  return `---\nname: ${name}\ndescription: The ${name} skill.\n${extra}---\n${body}`;
}

function write(root: string, folder: string, text: string): string {
  mkdirSync(path.join(root, folder), { recursive: true });
  const file = path.join(root, folder, 'SKILL.md');
  writeFileSync(file, text);
  return file;
}

const problemsOf = (catalog: SkillCatalog, folder: string) => catalog.problems.filter((p) => path.basename(path.dirname(p.file)) === folder);

describe('the corpus', () => {
  let catalog: SkillCatalog;
  beforeAll(async () => {
    catalog = await loadCatalog([{ dir: CORPUS, scope: 'user' }], { projectTrusted: false });
  });

  test('loads 20 skills under their (normalised) names, sorted; the 4 broken folders are skipped naming their file', () => {
    expect(catalog.skills.map((s) => s.name)).toEqual([
      'bad-values', 'bom-crlf', 'bom-notes', 'claude-fork', 'code-review', 'commit', 'crlf-notes', 'dashes-in-value', 'deploy-to-prod', 'different-name',
      'long-description', 'metadata-extras', 'missing-name', 'mixed-case', 'nested-refs', 'no-frontmatter', 'pdf', 'research-fork', 'shell-helper', 'team-release',
    ]);
    const skipped = catalog.problems.filter((p) => p.skipped);
    expect(skipped.map((p) => path.relative(CORPUS, p.file)).sort()).toEqual(['invalid-yaml/SKILL.md', 'not-a-mapping/SKILL.md', 'symbols-only/SKILL.md', 'unterminated/SKILL.md']);
    expect(problemsOf(catalog, 'unterminated')[0]!.message).toBe('the frontmatter starts with --- on line 1 but no line closes it (---)');
    expect(problemsOf(catalog, 'invalid-yaml')[0]!.message).toMatch(/^line \d+: invalid YAML in the frontmatter: /);
    expect(problemsOf(catalog, 'not-a-mapping')[0]!.message).toContain('must be a mapping');
    expect(problemsOf(catalog, 'symbols-only')[0]!.message).toBe('name "!!!" has no letters or digits to make a command name from');
    // A folder without SKILL.md and a file at the root are neither skills nor problems.
    expect(catalog.problems.some((p) => p.file.includes('not-a-skill') || p.file.endsWith('README.md'))).toBe(false);
  });

  test('names that are not valid are normalised with a warning naming the file; a mismatch with the folder is said', () => {
    expect(problemsOf(catalog, 'mixed-case').map((p) => p.message)).toEqual(['name "Mixed-Case" is not a valid skill name (lower-case letters, digits, -, _, :); loaded as "mixed-case"']);
    expect(problemsOf(catalog, 'deploy').map((p) => p.message)).toContain('name "deploy to prod" is not a valid skill name (lower-case letters, digits, -, _, :); loaded as "deploy-to-prod"');
    expect(catalog.get('team-release')!.dir).toBe(path.join(CORPUS, 'team-release'));
    expect(problemsOf(catalog, 'name-mismatch').map((p) => p.message)).toEqual(['name "different-name" differs from its folder "name-mismatch"; it is loaded as "different-name"']);
    // No `name:` is Claude Code's ordinary form (the folder's name is used): nothing to warn about.
    expect(problemsOf(catalog, 'missing-name')).toEqual([]);
    expect(catalog.get('missing-name')?.name).toBe('missing-name');
    expect(catalog.get('no-frontmatter')).toMatchObject({ description: '' });
    for (const problem of catalog.problems) expect(problem.file.startsWith(CORPUS)).toBe(true);
    expect(catalog.get('MIXED-case')?.name).toBe('mixed-case'); // look-ups ignore case
  });

  test('allowed-tools (Claude Code, a string) and allowed_tools (a list) are both read', () => {
    expect(catalog.get('commit')!.allowedTools).toEqual(['Bash(git add:*)', 'Bash(git commit:*)', 'Bash(git diff:*)', 'Read']);
    expect(catalog.get('code-review')).toMatchObject({ allowedTools: ['read_file', 'grep', 'glob'], argumentHint: '<file or PR>' });
  });

  test('mode, fork_context and model; unknown values fall back with a warning; Claude Code\'s context: fork is fork mode', () => {
    expect(catalog.get('research-fork')).toMatchObject({ mode: 'fork', forkContext: 'recent', model: 'fast' });
    expect(catalog.get('bad-values')).toMatchObject({ mode: 'inline', forkContext: 'none' });
    expect(catalog.get('bad-values')!.model).toBeUndefined();
    expect(problemsOf(catalog, 'bad-values').map((p) => p.message)).toEqual([
      'mode: "parallel" is not one of inline, fork; using inline',
      'fork_context: "everything" is not one of none, recent, full; using none',
      'line 6: model: must be text (a name); ignored',
    ]);
    expect(catalog.get('claude-fork')).toMatchObject({ mode: 'fork', agent: 'Explore', extra: { context: 'fork' } });
  });

  test('extra keys (license, version, metadata…) are kept and do not warn', () => {
    expect(catalog.get('metadata-extras')!.extra).toEqual({
      license: 'Apache-2.0', version: '1.2.0', compatibility: 'Requires git', metadata: { author: 'example-org', tags: ['docs', 'writing'] },
    });
    expect(catalog.get('metadata-extras')).toMatchObject({ modelInvocable: true, userInvocable: true });
    expect(problemsOf(catalog, 'metadata-extras')).toEqual([]);
    expect(catalog.get('pdf')!.extra).toEqual({ license: 'Proprietary. LICENSE.txt has complete terms' });
  });

  test('CRLF and BOM files parse like LF ones', () => {
    expect(catalog.get('crlf-notes')!.description).toBe('Written on Windows with CRLF line ends.');
    expect(catalog.get('bom-notes')!.description).toBe('Saved by an editor that writes a UTF-8 BOM.');
    expect(catalog.get('bom-crlf')!.description).toBe('Both a BOM and CRLF line ends.');
    expect(problemsOf(catalog, 'bom-crlf')).toEqual([]);
  });

  test('a --- line inside a block scalar belongs to the value', () => {
    expect(catalog.get('dashes-in-value')!.description).toBe('A block scalar whose text has a line of dashes: --- which is part of the value, not the end of the frontmatter.');
  });

  test('a long description is cut for the catalog, with a warning', () => {
    expect(catalog.get('long-description')!.description).toHaveLength(MAX_DESCRIPTION_LENGTH);
    expect(problemsOf(catalog, 'long-description')[0]!.message).toMatch(/^description is \d+ characters; the catalog shows the first 1024$/);
  });
});

describe('frontmatter', () => {
  test('the body follows the real closing line (also for ... and a file that ends at the closing line)', () => {
    const dashes = parseFrontmatter('---\ndescription: |\n  a\n  ---\n  b\n---\nBODY\n');
    expect(dashes).toMatchObject({ ok: true, body: 'BODY\n', data: { description: 'a\n---\nb\n' } });
    expect(parseFrontmatter('---\nname: x\n...\nBODY')).toMatchObject({ ok: true, body: 'BODY', data: { name: 'x' } });
    expect(parseFrontmatter('---\nname: x\n---')).toMatchObject({ ok: true, body: '', data: { name: 'x' } });
    expect(parseFrontmatter('\ufeff---\r\nname: x\r\n---\r\nA\r\nB\r\n')).toMatchObject({ ok: true, body: 'A\nB\n' });
    expect(parseFrontmatter('# no frontmatter\n---\nname: x\n')).toMatchObject({ ok: true, hasFrontmatter: false, data: {} });
    expect(parseFrontmatter('---\nname: a\nname: b\n---\n')).toMatchObject({ ok: false });
  });

  test('the frontmatter ends exactly where the yaml package\'s own CST parser ends the first document (corpus and tricky texts)', () => {
    const cstClosing = (text: string): number | undefined => {
      let seen = false;
      for (const token of new Parser().parse(text)) {
        if (token.type === 'document' && seen) return token.offset;
        if (token.type === 'doc-end' && seen) return token.offset;
        if (token.type === 'document') seen = true;
      }
      return undefined;
    };
    const texts = readdirSync(CORPUS, { withFileTypes: true }).filter((e) => e.isDirectory()).flatMap((e) => {
      try {
        return [normaliseText(readFileSync(path.join(CORPUS, e.name, 'SKILL.md'), 'utf8'))];
      } catch {
        return [];
      }
    });
    texts.push(
      '---\na: "x\n---\ny"\n---\nbody',
      '---\na: |\n  ---\n  ...\n...\nbody',
      '---\na: 1\n--- # comment\nbody',
      '---\na: 1\n---x\n---\nbody',
      '---\na: >\n  folded\n\n  ---\n---\n',
      '---\na: 1\n',
    );
    expect(texts.length).toBeGreaterThan(25);
    for (const text of texts) {
      if (!text.startsWith('---')) continue;
      const split = splitFrontmatter(text);
      const closing = cstClosing(text);
      if (closing === undefined) expect(split).toBeUndefined();
      else expect(split?.yaml).toBe(text.slice(text.indexOf('\n') + 1, closing));
    }
  });

  test('a tool list string splits on commas and spaces outside parentheses', () => {
    expect(splitToolList('Bash(git add:*), Read Grep,Bash(npm run test)')).toEqual(['Bash(git add:*)', 'Read', 'Grep', 'Bash(npm run test)']);
  });

  const where = { dir: '/s/x', file: '/s/x/SKILL.md', dirName: 'x', root: { dir: '/s', scope: 'user' as const } };

  test(`a name of ${MAX_NAME_LENGTH} characters loads; one more is skipped`, () => {
    const ok = 'a'.repeat(MAX_NAME_LENGTH);
    expect(parseSkill(skill(ok), { ...where, dirName: ok })).toMatchObject({ ok: true, skill: { name: ok } });
    expect(parseSkill(skill(`${ok}a`), where)).toMatchObject({ ok: false, reason: expect.stringContaining(`longer than ${MAX_NAME_LENGTH} characters`) });
  });

  test(`a description of ${MAX_DESCRIPTION_LENGTH} characters is whole; one more is cut`, () => {
    const exact = parseSkill(`---\nname: x\ndescription: ${'d'.repeat(MAX_DESCRIPTION_LENGTH)}\n---\n`, where);
    expect(exact).toMatchObject({ ok: true, skill: { description: 'd'.repeat(MAX_DESCRIPTION_LENGTH), warnings: [] } });
    const over = parseSkill(`---\nname: x\ndescription: ${'d'.repeat(MAX_DESCRIPTION_LENGTH + 1)}\n---\n`, where);
    expect(over.ok && over.skill.description).toBe(`${'d'.repeat(MAX_DESCRIPTION_LENGTH - 1)}…`);
  });
});

describe('roots', () => {
  test('lowest precedence first: ~/.mewcode/skills, the extra roots, <root>/.mewcode/skills', () => {
    expect(skillRoots('/h', '/p')).toEqual([
      { dir: '/h/.mewcode/skills', scope: 'user' },
      { dir: '/h/.claude/skills', scope: 'user' },
      { dir: '/p/.claude/skills', scope: 'project', project: '/p' },
      { dir: '/p/.agents/skills', scope: 'project', project: '/p' },
      { dir: '/p/.mewcode/skills', scope: 'project', project: '/p' },
    ]);
    expect(skillRoots('/h', '/p', ['/abs/skills', 'team/skills']).map((r) => r.dir)).toEqual(['/h/.mewcode/skills', '/abs/skills', '/p/team/skills', '/p/.mewcode/skills']);
  });

  test('a root in a project folder whose name begins with two dots (`..shared/skills`) is the project\'s, so its scripts need trust', () => {
    expect(skillRoots('/h', '/p', ['..shared/skills', '/p/.../skills', '/q/..p/skills']).slice(1, 4)).toEqual([
      { dir: '/p/..shared/skills', scope: 'project', project: '/p' },
      { dir: '/p/.../skills', scope: 'project', project: '/p' },
      { dir: '/q/..p/skills', scope: 'user' },
    ]);
  });

  test('a root outside the project that is a link into a `..shared` folder of the project is the project\'s too', () => {
    const home = temp('skills-home-');
    const project = temp('skills-project-');
    const outside = temp('skills-outside-');
    mkdirSync(path.join(project, '..shared', 'skills'), { recursive: true });
    symlinkSync(path.join(project, '..shared', 'skills'), path.join(outside, 'skills'));
    const root = skillRoots(home, project, [path.join(outside, 'skills')]).find((r) => r.dir === path.join(outside, 'skills'));
    expect(root).toEqual({ dir: path.join(outside, 'skills'), scope: 'project', project });
  });

  test('a trusted project wins over the user; within one root the first folder keeps a name and the second is skipped', async () => {
    const home = temp('skills-home-');
    const project = temp('skills-project-');
    write(path.join(home, '.mewcode', 'skills'), 'deploy', skill('deploy', 'user body'));
    write(path.join(home, '.mewcode', 'skills'), 'only-user', skill('only-user'));
    write(path.join(project, '.claude', 'skills'), 'deploy', skill('deploy', 'claude body'));
    const mine = write(path.join(project, '.mewcode', 'skills'), 'deploy', skill('deploy', 'project body'));
    write(path.join(project, '.mewcode', 'skills'), 'a-first', skill('twin'));
    const second = write(path.join(project, '.mewcode', 'skills'), 'b-second', skill('twin'));
    const catalog = await loadCatalog(skillRoots(home, project), { projectTrusted: true });
    expect(catalog.get('deploy')!.file).toBe(mine);
    expect(catalog.get('only-user')).toBeDefined();
    expect(catalog.get('twin')!.dir).toBe(path.join(project, '.mewcode', 'skills', 'a-first'));
    expect(catalog.problems.filter((p) => p.skipped)).toEqual([
      expect.objectContaining({ file: second, message: `the name "twin" is already used by ${path.join(project, '.mewcode', 'skills', 'a-first', 'SKILL.md')} in the same root` }),
    ]);
    // Untrusted, a repository's skill does not take the name of the user's own: both project
    // files of that name are named as not used; a name only the project has still loads.
    const untrusted = await loadCatalog(skillRoots(home, project), { projectTrusted: false });
    const users = path.join(home, '.mewcode', 'skills', 'deploy', 'SKILL.md');
    expect(untrusted.get('deploy')!.file).toBe(users);
    expect(untrusted.get('twin')).toBeDefined();
    expect(untrusted.problems.filter((p) => p.skipped && p.name === 'deploy').map((p) => [p.file, p.message])).toEqual([
      [path.join(project, '.claude', 'skills', 'deploy', 'SKILL.md'), `the user's own skill "deploy" (${users}) wins while this project is not trusted; not used`],
      [mine, `the user's own skill "deploy" (${users}) wins while this project is not trusted; not used`],
    ]);
  });

  test('a project skill that carries scripts loads only in a trusted project; a user skill needs no trust', async () => {
    const home = temp('skills-home-');
    const project = temp('skills-project-');
    cpSync(path.join(CORPUS, 'pdf'), path.join(project, '.claude', 'skills', 'pdf'), { recursive: true });
    cpSync(path.join(CORPUS, 'shell-helper'), path.join(project, '.mewcode', 'skills', 'shell-helper'), { recursive: true });
    chmodSync(path.join(project, '.mewcode', 'skills', 'shell-helper', 'bin', 'helper'), 0o755);
    cpSync(path.join(CORPUS, 'commit'), path.join(project, '.mewcode', 'skills', 'commit'), { recursive: true });
    cpSync(path.join(CORPUS, 'pdf'), path.join(home, '.claude', 'skills', 'pdf-user'), { recursive: true });
    const untrusted = await loadCatalog(skillRoots(home, project), { projectTrusted: false });
    expect(untrusted.skills.map((s) => [s.name, s.root.scope])).toEqual([['commit', 'project'], ['pdf', 'user']]);
    expect(untrusted.get('pdf')!.dir).toBe(path.join(home, '.claude', 'skills', 'pdf-user'));
    const refused = untrusted.problems.filter((p) => p.skipped).map((p) => p.message);
    expect(refused).toEqual([
      'the project\'s skill "pdf" carries scripts (scripts/check_fillable_fields.py, scripts/extract_form_field_info.py); it loads once you trust the project (--trust-project)',
      'the project\'s skill "shell-helper" carries scripts (bin/helper); it loads once you trust the project (--trust-project)',
    ]);
    const trusted = await loadCatalog(skillRoots(home, project), { projectTrusted: true });
    expect(trusted.skills.map((s) => s.name)).toEqual(['commit', 'pdf', 'shell-helper']);
    expect(trusted.get('pdf')!.dir).toBe(path.join(project, '.claude', 'skills', 'pdf'));
  });

  test(`a SKILL.md of ${MAX_SKILL_FILE_BYTES} bytes loads; one byte more is skipped with its size`, async () => {
    const root = temp('skills-root-');
    const head = skill('big', '');
    write(root, 'big', head + 'x'.repeat(MAX_SKILL_FILE_BYTES - Buffer.byteLength(head)));
    const bigger = write(root, 'bigger', skill('bigger', '') + 'x'.repeat(MAX_SKILL_FILE_BYTES - Buffer.byteLength(skill('bigger', '')) + 1));
    const catalog = await loadCatalog([{ dir: root, scope: 'user' }], { projectTrusted: true });
    expect(catalog.skills.map((s) => s.name)).toEqual(['big']);
    expect(catalog.problems).toEqual([{ file: bigger, skipped: true, message: `SKILL.md is ${MAX_SKILL_FILE_BYTES + 1} bytes, over the ${MAX_SKILL_FILE_BYTES}-byte limit` }]);
  });

  test('a root that is a file is a problem; a missing root is not', async () => {
    const dir = temp('skills-root-');
    writeFileSync(path.join(dir, 'file'), 'x');
    const catalog = await loadCatalog([{ dir: path.join(dir, 'missing'), scope: 'user' }, { dir: path.join(dir, 'file'), scope: 'user' }], { projectTrusted: true });
    expect(catalog.problems).toEqual([{ file: path.join(dir, 'file'), skipped: true, message: 'a skills root must be a directory' }]);
  });
});

test('argument-hint shows as written: `[file]` (a YAML list to a YAML reader) keeps its brackets', () => {
  const where = { dir: '/s/x', file: '/s/x/SKILL.md', dirName: 'x', root: { dir: '/s', scope: 'user' as const } };
  const hint = (line: string) => {
    const parsed = parseSkill(`---\nname: x\ndescription: d\n${line}\n---\nBody\n`, where);
    return parsed.ok ? parsed.skill.argumentHint : parsed.reason;
  };
  expect(hint('argument-hint: [file]')).toBe('[file]');
  expect(hint('argument-hint: [pr, priority]')).toBe('[pr, priority]');
  expect(hint('argument-hint: <file> [focus]')).toBe('<file> [focus]');
  expect(hint('argument_hint: 3')).toBe('3');
});
