/**
 * Skills as real public skills use them, through the built CLI: a continued session keeps its
 * active skills; an active user skill's own files are readable (never writable); problems make one
 * concise notice per run; only what a skill runs counts as its scripts.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prepareCli, removeTempDirs, scenario, tempDir } from './helpers.js';

beforeAll(() => prepareCli(), 120_000);
afterAll(removeTempDirs);

function put(file: string, text: string, mode?: number): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text, mode === undefined ? undefined : { mode });
}

const skill = (name: string, description: string, body: string): string => `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
const results = (body: any): any[] => (body.messages.at(-1).content as any[]).filter((b) => b.type === 'tool_result');
const system = (body: any): string => JSON.stringify(body.system);

test('a continued session keeps its active skills: the Active Skills section is in the resumed requests', async () => {
  await scenario([{ text: 'started' }, { text: 'continued' }], async (s) => {
    put(path.join(s.home, '.claude', 'skills', 'test-driven-development', 'SKILL.md'), skill('test-driven-development', 'Write the failing test first', 'TDD-MARKER: write a failing test before any fix.'));
    expect((await s.run(['-p', '/test-driven-development fix the bug'])).code).toBe(0);
    expect(system(s.requests[0]!.body)).toContain('TDD-MARKER');
    expect((await s.run(['-c', '-p', 'go on'])).code).toBe(0);
    expect(JSON.stringify(s.requests[1]!.body.messages)).toContain('is now active');
    expect(system(s.requests[1]!.body)).toContain('# Active Skills');
    expect(system(s.requests[1]!.body)).toContain('TDD-MARKER');
  });
});

test('an active user skill\'s folder is readable by read_file, never writable; other home files stay out of reach', async () => {
  const turns = (home: string) => {
    const dir = path.join(home, '.claude', 'skills', 'pdf');
    return [
      { toolCalls: [{ id: 'before', name: 'read_file', input: { file_path: path.join(dir, 'forms.md') } }] },
      { toolCalls: [{ id: 'load', name: 'load_skill', input: { name: 'pdf' } }] },
      {
        toolCalls: [
          { id: 'read', name: 'read_file', input: { file_path: path.join(dir, 'forms.md') } },
          { id: 'tilde', name: 'read_file', input: { file_path: '~/.claude/skills/pdf/forms.md' } },
          { id: 'write', name: 'write_file', input: { file_path: path.join(dir, 'forms.md'), content: 'overwritten' } },
          { id: 'edit', name: 'edit_file', input: { file_path: path.join(dir, 'forms.md'), old_string: 'Fill', new_string: 'Pwned' } },
          { id: 'new', name: 'write_file', input: { file_path: path.join(dir, 'new.sh'), content: 'echo hi' } },
          { id: 'secret', name: 'read_file', input: { file_path: path.join(home, 'secret.txt') } },
          { id: 'up', name: 'read_file', input: { file_path: path.join(dir, '..', '..', '..', 'secret.txt') } },
        ],
      },
      { text: 'done' },
    ];
  };
  const home = tempDir('mewcode-skill-home-');
  await scenario(turns(home), async (s) => {
    const dir = path.join(home, '.claude', 'skills', 'pdf');
    put(path.join(dir, 'SKILL.md'), skill('pdf', 'Fill PDF forms', 'See forms.md in this folder for the form fields.'));
    put(path.join(dir, 'forms.md'), 'Fill the fields in order.\n');
    put(path.join(home, 'secret.txt'), 'top secret\n');
    const run = await s.run(['-p', 'fill the form', '--permission-mode', 'bypassPermissions'], { env: { HOME: home } });
    expect(run.code).toBe(0);
    const [before] = results(s.requests[1]!.body);
    expect(before).toMatchObject({ is_error: true });
    expect(before.content).toMatch(/outside the project/);
    expect(results(s.requests[2]!.body)[0]).toMatchObject({ is_error: false });
    const [read, tilde, write, edit, created, secret, up] = results(s.requests[3]!.body);
    expect(read).toMatchObject({ is_error: false });
    expect(read.content).toContain('Fill the fields in order.');
    expect(tilde.content).toContain('Fill the fields in order.');
    for (const refused of [write, edit, created, secret, up]) {
      expect(refused.is_error).toBe(true);
      expect(refused.content).toMatch(/^Permission denied by permission-sandbox: .*outside the project/);
    }
    expect(readFileSync(path.join(dir, 'forms.md'), 'utf8')).toBe('Fill the fields in order.\n');
  });
});

test('an untrusted project cannot open a folder of its choosing by naming it a skill root', async () => {
  const elsewhere = tempDir('mewcode-skill-root-');
  put(path.join(elsewhere, 'notes', 'SKILL.md'), skill('notes', 'Notes', 'Read private.txt.'));
  put(path.join(elsewhere, 'notes', 'private.txt'), 'private\n');
  const turns = [
    { toolCalls: [{ id: 'load', name: 'load_skill', input: { name: 'notes' } }] },
    { toolCalls: [{ id: 'read', name: 'read_file', input: { file_path: path.join(elsewhere, 'notes', 'private.txt') } }] },
    { text: 'done' },
  ];
  await scenario(turns, async (s) => {
    put(path.join(s.cwd, '.mewcode.yaml'), `skills:\n  extra_roots: [${JSON.stringify(elsewhere)}]\n`);
    expect((await s.run(['-p', 'go', '--permission-mode', 'bypassPermissions'])).code).toBe(0);
    expect(results(s.requests[1]!.body)[0]).toMatchObject({ is_error: false }); // the skill itself loaded
    const [read] = results(s.requests[2]!.body);
    expect(read.is_error).toBe(true);
    expect(read.content).toMatch(/outside the project/);
  });
});

test('skill problems make one concise notice per run, and only what a skill runs counts as its scripts', async () => {
  await scenario([{ text: 'hi' }], async (s) => {
    const root = path.join(s.cwd, '.claude', 'skills');
    // A template and an example the skill never runs: data, so the skill loads untrusted.
    put(path.join(root, 'frontend', 'SKILL.md'), skill('frontend', 'Build components', 'Start from the component template in this folder.'));
    put(path.join(root, 'frontend', 'templates', 'component.js'), 'export default function Component() {}\n');
    put(path.join(root, 'frontend', 'examples', 'usage.ts'), 'import C from "./c";\n');
    // Scripts the skill says it runs: withheld until the project is trusted.
    put(path.join(root, 'pdf', 'SKILL.md'), skill('pdf', 'PDF forms', 'Run `python scripts/fill.py form.pdf`.'));
    put(path.join(root, 'pdf', 'scripts', 'fill.py'), 'print("fill")\n');
    put(path.join(root, 'xlsx', 'SKILL.md'), skill('xlsx', 'Spreadsheets', 'Recalculate with recalc.py.'));
    put(path.join(root, 'xlsx', 'recalc.py'), 'print("recalc")\n');
    // Skills loaded with warnings.
    put(path.join(root, 'one', 'SKILL.md'), '---\nname: one\n---\nbody\n');
    put(path.join(root, 'two', 'SKILL.md'), '---\nname: Two Words\ndescription: x\n---\nbody\n');
    put(path.join(root, 'three', 'SKILL.md'), 'no frontmatter at all\n');
    const run = await s.run(['-p', 'hi']);
    expect(run.code).toBe(0);
    const skillLines = run.stderr.split('\n').filter((line) => /skills?:/.test(line));
    expect(skillLines).toHaveLength(1);
    expect(skillLines[0]).toMatch(/2 not loaded \(pdf, xlsx\)/);
    expect(skillLines[0]).toMatch(/3 loaded with warnings/);
    expect(skillLines[0]).toMatch(/mewcode skills/);
    expect(system(s.requests[0]!.body)).toContain('- frontend: Build components');
    expect(system(s.requests[0]!.body)).not.toContain('- pdf:');
  });
});
