/**
 * `mewcode skills` (the built CLI): the catalog with name, mode, source root, description and the
 * problems found; `mewcode skills install <url>` against the local fake of GitHub's API.
 */
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runSkillsCommand } from '../../../plugins/skills/skills-subcommand.js';
import { capturedContext } from '../../support/subcommand-context.js';
import { prepareCli, removeTempDirs, scenario } from '../../cli/helpers.js';
import { startFakeGithub } from './fake-github.js';

const CORPUS = path.resolve('test/fixtures/skills/corpus');

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

test('usage: skills install takes one URL, other words and --project without install are errors (exit 2)', async () => {
  const cases: [string[], string][] = [
    [['install'], 'skills install takes one URL'],
    [['remove', 'x'], 'unknown skills subcommand "remove x"'],
    [['--project'], '--project is for skills install'],
    [['--bogus'], "Unknown option '--bogus'"],
  ];
  for (const [argv, problem] of cases) {
    const run = capturedContext(argv);
    expect(await runSkillsCommand(run.context)).toBe(2);
    expect(run.err()).toBe(`mewcode: ${problem}; usage: mewcode skills [--trust-project] | mewcode skills install <url> [--project]\n`);
  }
});

test.concurrent('mewcode skills lists name, mode, root and description, then every problem naming its file', async () => {
  await scenario([], async (s) => {
    const root = path.join(s.cwd, '.claude', 'skills');
    mkdirSync(root, { recursive: true });
    for (const folder of ['commit', 'research-fork', 'name-mismatch', 'unterminated']) cpSync(path.join(CORPUS, folder), path.join(root, folder), { recursive: true });
    const r = await s.run(['skills']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`commit  inline  ${root}\n    Write a Conventional Commits message`);
    expect(r.stdout).toContain(`research-fork  fork (context recent, model fast)  ${root}\n`);
    expect(r.stdout).toContain(`different-name  inline  ${root}\n    The frontmatter name differs from the folder.\n    warning: name "different-name" differs from its folder "name-mismatch"; it is loaded as "different-name"\n`);
    expect(r.stdout).toContain(`Problems:\n  ${path.join(root, 'unterminated', 'SKILL.md')}: skipped: the frontmatter starts with --- on line 1 but no line closes it (---)\n`);
    expect(s.requests).toHaveLength(0);
  });
});

test.concurrent('mewcode skills with none says where it looks', async () => {
  await scenario([], async (s) => {
    const r = await s.run(['skills']);
    expect(r.stdout).toBe(`No skills. Folders with a SKILL.md are read from: ~/.mewcode/skills, ~/.claude/skills, ${s.cwd}/.claude/skills, ${s.cwd}/.agents/skills, ${s.cwd}/.mewcode/skills.\n`);
  });
});

test.concurrent('mewcode skills install <url> installs from the (fake) GitHub API; a refused host exits 1', async () => {
  const github = await startFakeGithub();
  try {
    github.repos.set('acme/skills', { 'skills/pdf/SKILL.md': '---\nname: pdf\ndescription: PDFs.\n---\nBody.\n' });
    await scenario([], async (s) => {
      const env = github.env;
      const r = await s.run(['skills', 'install', 'https://github.com/acme/skills/tree/main/skills/pdf', '--project'], { env });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Installed the skill "pdf" (1 file, 43 bytes) in ${path.join(s.cwd, '.mewcode', 'skills', 'pdf')}.\nIt is available now as /pdf and through load_skill. PDFs.`);
      expect(existsSync(path.join(s.cwd, '.mewcode', 'skills', 'pdf', 'SKILL.md'))).toBe(true);
      const refused = await s.run(['skills', 'install', 'https://example.com/x/SKILL.md'], { env });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('mewcode: The skill was not installed: Skills are installed only from github.com, raw.githubusercontent.com and skills.sh (not example.com).');
    });
  } finally {
    await github.close();
  }
});

test.concurrent('/skills (headless) prints the catalog in use, as mewcode skills does', async () => {
  await scenario([], async (s) => {
    cpSync(path.join(CORPUS, 'commit'), path.join(s.cwd, '.mewcode', 'skills', 'commit'), { recursive: true });
    const r = await s.run(['-p', '/skills']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`commit  inline  ${path.join(s.cwd, '.mewcode', 'skills')}\n    Write a Conventional Commits message for the staged changes and commit them. Use when the user asks to commit.\n`);
    expect(s.requests).toHaveLength(0);
  });
});

test.concurrent('skills.extra_roots in .mewcode.yaml adds a root, for mewcode skills and for a run', async () => {
  await scenario([{ text: 'ok' }], async (s) => {
    cpSync(path.join(CORPUS, 'commit'), path.join(s.cwd, 'team', 'skills', 'commit'), { recursive: true });
    writeFileSync(path.join(s.cwd, '.mewcode.yaml'), 'skills:\n  extra_roots: [team/skills]\n  watch: false\n');
    const list = await s.run(['skills']);
    expect(list.stdout).toContain(`commit  inline  ${path.join(s.cwd, 'team', 'skills')}\n`);
    const run = await s.run(['-p', '/commit now']);
    expect(run.code).toBe(0);
    expect(s.requests[0]!.body.system[1].text).toContain('## User Request\n\nnow');
    writeFileSync(path.join(s.cwd, '.mewcode.yaml'), 'skills:\n  extra_roots: team/skills\n');
    const bad = await s.run(['skills']);
    expect(bad.stderr).toMatch(/\.mewcode\.yaml:2:\d+: skills\.extra_roots: Expected array, received string; the section is ignored/);
  });
});
