/** A5 pattern kinds, friendly names, MCP names, and Claude Code's spellings. */
import path from 'node:path';
import { symlinkSync, mkdirSync, writeFileSync } from 'node:fs';
import { bash, bootRules, decide, edit, outcome, read, tempDirs, write, writeSettings, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

async function withRules(rules: { allow?: string[]; ask?: string[]; deny?: string[] }) {
  writeSettings(dirs, 'project', rules);
  return (await bootRules(dirs)).kernel;
}

describe('command patterns', () => {
  it('= is an exact match', async () => {
    const kernel = await withRules({ allow: ['Bash(=npm test)'] });
    expect(await outcome(bash(kernel, 'npm test'))).toBe('allow');
    expect(await outcome(bash(kernel, 'npm test --watch'))).toBe('mode:ask');
  });

  it('~ is a regex searched in the command (RE2: linear time)', async () => {
    const kernel = await withRules({ deny: ['Bash(~^git\\s+push\\b.*--force)'] });
    expect(await outcome(bash(kernel, 'git push origin --force'))).toBe('deny');
    expect(await outcome(bash(kernel, 'git push origin'))).toBe('mode:ask');
    // a catastrophic-backtracking pattern for JS RegExp answers at once under RE2
    const slow = await withRules({ deny: ['Bash(~^(a+)+$)'] });
    const started = performance.now();
    expect(await outcome(bash(slow, `echo ${'a'.repeat(40)}b`))).toBe('mode:ask');
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('! negates and nests: !!x is x', async () => {
    const kernel = await withRules({ deny: ['Bash(!git *)'], allow: ['Bash(!!git status)'] });
    expect(await outcome(bash(kernel, 'ls'))).toBe('deny');
    expect(await outcome(bash(kernel, 'git status'))).toBe('allow');
    expect(await outcome(bash(kernel, 'git log'))).toBe('mode:ask');
  });

  it('glob: * matches any text including spaces, anywhere', async () => {
    const kernel = await withRules({ allow: ['Bash(git * main)', 'Bash(* --version)'] });
    expect(await outcome(bash(kernel, 'git push origin main'))).toBe('allow');
    expect(await outcome(bash(kernel, 'node --version'))).toBe('allow');
    expect(await outcome(bash(kernel, 'git push origin dev'))).toBe('mode:ask');
  });

  it("Claude's :* suffix and a trailing space-star are prefix matches on a word boundary", async () => {
    const kernel = await withRules({ allow: ['Bash(npm run test:*)', 'Bash(ls *)', 'Bash(cat*)'] });
    expect(await outcome(bash(kernel, 'npm run test'))).toBe('allow');
    expect(await outcome(bash(kernel, 'npm run test -- --watch'))).toBe('allow');
    expect(await outcome(bash(kernel, 'npm run testing'))).toBe('mode:ask');
    expect(await outcome(bash(kernel, 'npm run test:unit'))).toBe('mode:ask');
    expect(await outcome(bash(kernel, 'ls -la'))).toBe('allow');
    expect(await outcome(bash(kernel, 'lsof'))).toBe('mode:ask');
    expect(await outcome(bash(kernel, 'catalog'))).toBe('allow');
  });

  it('a bare tool name and Tool(*) match every call', async () => {
    const kernel = await withRules({ ask: ['Bash'], allow: ['Read(*)'] });
    expect(await outcome(bash(kernel, 'anything at all'))).toBe('ask');
    expect(await outcome(read(kernel, '/etc/hosts'))).toBe('allow');
  });

  it('deny rules see unquoted words: quoting does not dodge a deny', async () => {
    const kernel = await withRules({ deny: ['Bash(git push *)'] });
    expect(await outcome(bash(kernel, '"git" push origin'))).toBe('deny');
    expect(await outcome(bash(kernel, 'timeout 5 git push origin'))).toBe('deny');
    expect(await outcome(bash(kernel, 'FOO=1 git push origin'))).toBe('deny');
  });
});

describe('path patterns', () => {
  it('glob with ** is segment-wise, relative to the project root', async () => {
    const kernel = await withRules({ allow: ['Edit(src/**)', 'Edit(docs/*.md)'] });
    expect(await outcome(edit(kernel, 'src/a/b/c.ts'))).toBe('allow');
    expect(await outcome(edit(kernel, path.join(dirs.root, 'src/x.ts')))).toBe('allow');
    expect(await outcome(edit(kernel, 'docs/readme.md'))).toBe('allow');
    expect(await outcome(edit(kernel, 'docs/sub/readme.md'))).toBe('mode:ask');
    expect(await outcome(edit(kernel, 'lib/x.ts'))).toBe('mode:ask');
    expect(await outcome(edit(kernel, 'src/../lib/x.ts'))).toBe('mode:ask');
  });

  it('./.env is the file in the project root', async () => {
    const kernel = await withRules({ deny: ['Read(./.env)'] });
    expect(await outcome(read(kernel, '.env'))).toBe('deny');
    expect(await outcome(read(kernel, path.join(dirs.root, '.env')))).toBe('deny');
    expect(await outcome(read(kernel, 'sub/.env'))).toBe('mode:allow');
  });

  it('//abs is an absolute path, ~/ the home directory, /x the settings base (project root)', async () => {
    const kernel = await withRules({ deny: ['Read(//etc/**)', 'Read(~/.ssh/**)', 'Edit(/generated/**)'] });
    expect(await outcome(read(kernel, '/etc/passwd'))).toBe('deny');
    expect(await outcome(read(kernel, path.join(dirs.home, '.ssh/id_rsa')))).toBe('deny');
    expect(await outcome(read(kernel, '~/.ssh/id_rsa'))).toBe('deny');
    expect(await outcome(edit(kernel, 'generated/api.ts'))).toBe('deny');
    expect(await outcome(edit(kernel, '/generated/api.ts'))).toBe('mode:ask');
  });

  it('in the user file, /x is relative to ~/.mewcode', async () => {
    writeSettings(dirs, 'user', { deny: ['Read(/secrets/**)'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(read(kernel, path.join(dirs.home, '.mewcode/secrets/k')))).toBe('deny');
    expect(await outcome(read(kernel, 'secrets/k'))).toBe('mode:allow');
  });

  it('= compares the resolved path exactly, glob characters included', async () => {
    const kernel = await withRules({ allow: ['Write(=./src/[id].ts)'] });
    expect(await outcome(write(kernel, 'src/[id].ts'))).toBe('allow');
    expect(await outcome(write(kernel, 'src/i.ts'))).toBe('mode:ask');
  });

  it('~ regex over the absolute path', async () => {
    const kernel = await withRules({ deny: ['Read(~\\.pem$)'] });
    expect(await outcome(read(kernel, 'certs/server.pem'))).toBe('deny');
    expect(await outcome(read(kernel, 'certs/server.txt'))).toBe('mode:allow');
  });

  it('a symlink to a denied file is denied', async () => {
    writeFileSync(path.join(dirs.root, '.env'), 'SECRET=1');
    mkdirSync(path.join(dirs.root, 'src'));
    symlinkSync(path.join(dirs.root, '.env'), path.join(dirs.root, 'src', 'config.txt'));
    const kernel = await withRules({ deny: ['Read(./.env)'], allow: ['Read(src/**)'] });
    expect(await outcome(read(kernel, 'src/config.txt'))).toBe('deny');
  });

  it('Edit rules cover every file-writing tool; a Read deny also blocks writes (Claude Code)', async () => {
    const kernel = await withRules({ allow: ['Edit(src/**)'], deny: ['Read(./.env)'] });
    expect(await outcome(write(kernel, 'src/new.ts'))).toBe('allow');
    expect(await outcome(edit(kernel, '.env', 'acceptEdits'))).toBe('deny');
    expect(await outcome(write(kernel, '.env', 'acceptEdits'))).toBe('deny');
  });

  it('Read rules apply to reading tools with a path (glob) too; Write only to write_file', async () => {
    const kernel = await withRules({ deny: ['Read(./secrets/**)'], allow: ['Write(out/**)'] });
    expect(await outcome(decide(kernel, 'glob', { path: 'secrets/x' }))).toBe('deny');
    expect(await outcome(write(kernel, 'out/a.txt'))).toBe('allow');
    expect(await outcome(edit(kernel, 'out/a.txt'))).toBe('mode:ask');
  });
});

describe('tool names', () => {
  it('friendly names and exact registered names', async () => {
    const kernel = await withRules({ allow: ['read_file(notes/**)', 'edit_file(=./a.txt)', 'Glob'] });
    expect(await outcome(read(kernel, 'notes/x'))).toBe('allow');
    expect(await outcome(edit(kernel, 'a.txt'))).toBe('allow');
    expect(await outcome(decide(kernel, 'glob', { path: 'anything' }))).toBe('allow');
  });

  it("Claude Code's TodoWrite names todo_write", async () => {
    const kernel = await withRules({ deny: ['TodoWrite'] });
    expect(await outcome(decide(kernel, 'todo_write', { todos: [] }))).toBe('deny');
  });

  it('MCP: full names, mcp__server__* and mcp__server; the target is the tool name', async () => {
    const kernel = await withRules({ allow: ['mcp__fs__*'], deny: ['mcp__fs__write'], ask: ['mcp__git'] });
    expect(await outcome(decide(kernel, 'mcp__fs__read', {}))).toBe('allow');
    expect(await outcome(decide(kernel, 'mcp__fs__write', {}))).toBe('deny');
    expect(await outcome(decide(kernel, 'mcp__git__log', {}))).toBe('ask');
  });

  it('tool-name wildcards: anything in deny, only after mcp__<server>__ in allow', async () => {
    writeSettings(dirs, 'project', { deny: ['mcp__*'], allow: ['*', 'mcp__*'] });
    const { kernel, reporter } = await bootRules(dirs);
    expect(await outcome(decide(kernel, 'mcp__git__log', {}))).toBe('deny');
    expect(await outcome(bash(kernel, 'ls'))).toBe('mode:ask');
    expect(reporter.warnings.filter((w) => w.includes('tool-name wildcard'))).toHaveLength(2);
  });
});

describe('patterns a hostile project or model writes never hang a check (linear-time matching)', () => {
  // Each of these kept V8's backtracking busy for hours on the long text beside it.
  const stars = `${'*a'.repeat(8)}*b`;
  const long = 'a'.repeat(240);

  it('a command glob with many stars, against a long command', async () => {
    const kernel = await withRules({ deny: [`Bash(${stars})`] });
    expect(await outcome(bash(kernel, `echo ${'a'.repeat(300)}`))).toBe('mode:ask');
    expect(await outcome(bash(kernel, 'echo aaaaaaaab'))).toBe('deny');
  });

  it('a path glob with many stars, against a long file name', async () => {
    const kernel = await withRules({ deny: [`Read(**/${stars})`] });
    expect(await outcome(read(kernel, `src/${long}`))).toBe('mode:allow');
    expect(await outcome(read(kernel, 'src/aaaaaaaab'))).toBe('deny');
  });

  it('a tool-name glob with many stars, against a long MCP tool name', async () => {
    const kernel = await withRules({ deny: [`mcp__${stars}`] });
    expect(await outcome(decide(kernel, `mcp__${long}`, {}))).toBe('mode:ask');
    expect(await outcome(decide(kernel, 'mcp__srv__aaaaaaaab', {}))).toBe('deny');
  });

  it("a command's glob operand against long names: the files a rule names, the protected paths, a program the command writes", async () => {
    writeFileSync(path.join(dirs.root, long), 'x');
    const kernel = await withRules({ deny: [`Read(./${long})`, 'Read(./aaaaaaaab)'] });
    expect(await outcome(bash(kernel, `cat ./${stars}`))).toBe('deny');
    expect(await outcome(bash(kernel, `cat ./${stars}x`))).toBe('mode:ask');
    mkdirSync(path.join(dirs.root, '.git', 'hooks'), { recursive: true });
    writeFileSync(path.join(dirs.root, '.git', long), 'x');
    expect(await outcome(bash(kernel, `cp /tmp/x .git/${stars}`))).toBe('mode:ask'); // no match: bash writes the name as typed
    expect(await outcome(bash(kernel, 'cp /tmp/x .git/h*k?/pre-commit'))).toBe('ask'); // .git/hooks/pre-commit
    const plain = await withRules({ allow: ['Bash(cp *)', 'Bash(./*)'] });
    expect(await outcome(bash(plain, `cp /bin/true ${stars}; ./${long}`))).toBe('allow');
    expect(await outcome(bash(plain, `cp /bin/true ${stars}; ./aaaaaaaab`))).toBe('mode:ask'); // runs what it just wrote: the allow rule does not pass it
  });
});
