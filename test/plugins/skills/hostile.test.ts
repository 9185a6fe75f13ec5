/**
 * A hostile repository against the catalog and load_skill: project skills that link outside the
 * project (a SKILL.md or a whole skill folder pointing at the user's secrets), and a SKILL.md that
 * grows, or turns into a link or a device, after the catalog was scanned. Errors at load time are
 * tool results the model can act on (K1).
 */
import { appendFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Message, ToolMessage } from '../../../types/messages.js';
import { loadCatalog, MAX_ROOT_ENTRIES } from '../../../plugins/skills/catalog.js';
import { frontmatterReady } from '../../../plugins/skills/frontmatter.js';
import { rootsWrittenByProject, skillRoots } from '../../../plugins/skills/roots.js';
import { loadConfig } from '../../../config/load.js';
import { createWorkspaceTrust } from '../../../config/trust.js';
import { MAX_SKILL_FILE_BYTES, type Skill } from '../../../plugins/skills/skill.js';
import { MAX_CATALOG_CHARS, renderCatalog } from '../../../plugins/skills/render.js';
import { MAX_NAMES_LISTED, unknownSkillMessage } from '../../../plugins/skills/activation.js';
import { SKILLS_RUNTIME } from '../../../plugins/skills/runtime.js';
import { collect } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { bootSkills, writeSkill } from './helpers.js';

beforeAll(() => frontmatterReady());
afterEach(() => removeTempDirs());

const toolResults = (messages: readonly Message[]): { content: string; isError?: boolean }[] =>
  messages.filter((m): m is ToolMessage => m.role === 'tool').flatMap((m) => m.results.map((r) => ({ content: r.content, ...(r.isError ? { isError: true } : {}) })));

describe('links out of the project', () => {
  test('a project SKILL.md or skill folder linked outside the project is skipped, naming where it points; links inside the project and user skills load', async () => {
    const home = temp('skills-home-');
    const project = temp('skills-project-');
    const secrets = temp('skills-secrets-');
    writeFileSync(path.join(secrets, 'id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY-----\nSECRET\n');
    writeSkill(secrets, 'outside', { name: 'outside', description: 'Lives outside.' }, 'OUTSIDE BODY\n');
    const skills = path.join(project, '.claude', 'skills');
    mkdirSync(path.join(skills, 'key'), { recursive: true });
    symlinkSync(path.join(secrets, 'id_rsa'), path.join(skills, 'key', 'SKILL.md'));
    symlinkSync(path.join(secrets, 'outside'), path.join(skills, 'linked-out'));
    // Inside the project: a link to a shared folder of the same repository is fine.
    writeSkill(path.join(project, 'shared'), 'team', { name: 'team', description: 'Shared in the repo.' }, 'TEAM BODY\n');
    symlinkSync(path.join(project, 'shared', 'team'), path.join(skills, 'team'));
    // The user's own skills may link anywhere.
    mkdirSync(path.join(home, '.mewcode', 'skills'), { recursive: true });
    symlinkSync(path.join(secrets, 'outside'), path.join(home, '.mewcode', 'skills', 'outside'));

    const catalog = await loadCatalog(skillRoots(home, project), { projectTrusted: true });
    expect(catalog.skills.map((s) => [s.name, s.root.scope])).toEqual([['outside', 'user'], ['team', 'project']]);
    const skipped = catalog.problems.filter((p) => p.skipped);
    expect(skipped.map((p) => path.relative(project, p.file)).sort()).toEqual(['.claude/skills/key/SKILL.md', '.claude/skills/linked-out/SKILL.md']);
    for (const problem of skipped) expect(problem.message).toMatch(/^SKILL\.md is a link to .*, outside the project; a project's file may not lead out of it$/);
  });

  test('a project skill whose SKILL.md becomes a link outside after the scan: load_skill returns an error result, the secret never reaches the model', async () => {
    const secrets = temp('skills-secrets-');
    writeFileSync(path.join(secrets, 'id_rsa'), 'PRIVATE KEY MATERIAL\n');
    const { kernel, model, projectSkills } = await bootSkills([useTools([call('load_skill', { name: 'notes' })]), say('ok')]);
    const dir = writeSkill(projectSkills, 'notes', { name: 'notes', description: 'Notes.' }, 'NOTES BODY\n');
    await kernel.container.get(SKILLS_RUNTIME).reload();
    rmSync(path.join(dir, 'SKILL.md'));
    symlinkSync(path.join(secrets, 'id_rsa'), path.join(dir, 'SKILL.md'));
    await collect(kernel.run({ prompt: 'take notes', mode: 'bypassPermissions' }));
    const [result] = toolResults(model.requests[1]!.messages);
    expect(result!.isError).toBe(true);
    expect(result!.content).toMatch(/^Cannot read the skill "notes" \(.*\): SKILL\.md is a link to .*, outside the project/);
    expect(JSON.stringify(model.requests)).not.toContain('PRIVATE KEY MATERIAL');
  });
});

describe('a SKILL.md that changes after the scan', () => {
  test(`one that grew past ${MAX_SKILL_FILE_BYTES} bytes is refused at load (an error result), not read whole`, async () => {
    const { kernel, model, home, runtime } = await bootSkills([useTools([call('load_skill', { name: 'grows' })]), say('ok')]);
    const dir = writeSkill(path.join(home, '.mewcode', 'skills'), 'grows', { name: 'grows', description: 'Grows.' }, 'SMALL\n');
    await runtime.reload();
    expect(runtime.store.current.get('grows')).toBeDefined();
    appendFileSync(path.join(dir, 'SKILL.md'), 'x'.repeat(MAX_SKILL_FILE_BYTES));
    await collect(kernel.run({ prompt: 'go', mode: 'bypassPermissions' }));
    const [result] = toolResults(model.requests[1]!.messages);
    expect(result!.isError).toBe(true);
    expect(result!.content).toMatch(new RegExp(`SKILL\\.md is \\d+ bytes, over the ${MAX_SKILL_FILE_BYTES}-byte limit`));
    expect(model.requests[1]!.system.environment ?? '').not.toContain('SMALL');
  });

  test('one replaced by a link to a device (/dev/zero) is refused at once', async () => {
    const { kernel, model, home, runtime } = await bootSkills([useTools([call('load_skill', { name: 'zero' })]), say('ok')]);
    const dir = writeSkill(path.join(home, '.mewcode', 'skills'), 'zero', { name: 'zero', description: 'Zero.' }, 'ZERO\n');
    await runtime.reload();
    rmSync(path.join(dir, 'SKILL.md'));
    symlinkSync('/dev/zero', path.join(dir, 'SKILL.md'));
    await collect(kernel.run({ prompt: 'go', mode: 'bypassPermissions' }));
    const [result] = toolResults(model.requests[1]!.messages);
    expect(result).toEqual({ isError: true, content: expect.stringContaining('SKILL.md leads to /dev/zero, a system file') });
  }, 10_000);
});

describe('a root with very many entries', () => {
  const fill = (root: string, count: number): void => {
    for (let i = 0; i < count; i++) {
      const dir = path.join(root, `s${String(i).padStart(5, '0')}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: s${String(i).padStart(5, '0')}\ndescription: d\n---\nb\n`);
    }
  };

  test(`${MAX_ROOT_ENTRIES} entries are all looked at; one more and only ${MAX_ROOT_ENTRIES} are, with a problem naming the root`, async () => {
    const root = temp('skills-many-');
    fill(root, MAX_ROOT_ENTRIES);
    const full = await loadCatalog([{ dir: root, scope: 'user' }], { projectTrusted: true });
    expect(full.skills).toHaveLength(MAX_ROOT_ENTRIES);
    expect(full.problems).toEqual([]);
    // A hidden entry counts too: what is bounded is the reading of the folder.
    mkdirSync(path.join(root, '.hidden'));
    const over = await loadCatalog([{ dir: root, scope: 'user' }], { projectTrusted: true });
    expect(over.skills.length).toBeLessThanOrEqual(MAX_ROOT_ENTRIES);
    expect(over.skills.length).toBeGreaterThanOrEqual(MAX_ROOT_ENTRIES - 1);
    expect(over.problems).toEqual([{ file: root, skipped: true, message: `more than ${MAX_ROOT_ENTRIES} entries; only the first ${MAX_ROOT_ENTRIES} read are looked at (the rest are not loaded)` }]);
  }, 30_000);
});

describe('the catalog in the stable prompt', () => {
  const entry = (i: number, description: string): Skill => ({ name: `s${String(i).padStart(4, '0')}`, description }) as Skill;

  test('a catalog of exactly the budget is listed whole; one character more and the last skill is left out, counted', () => {
    const skills = [entry(1, 'one'), entry(2, 'two'), entry(3, 'three')];
    const whole = renderCatalog(skills, Number.MAX_SAFE_INTEGER);
    expect(renderCatalog(skills, whole.length)).toBe(whole);
    const cut = renderCatalog(skills, whole.length - 1);
    expect(cut).toBe(`${renderCatalog(skills.slice(0, 2), Number.MAX_SAFE_INTEGER)}\n(1 more skill not listed: the catalog is over ${whole.length - 1} characters.)`);
  });

  test(`500 skills with long descriptions stay within ${MAX_CATALOG_CHARS} characters of stable prompt; a skill left out still loads by name`, async () => {
    const { kernel, model, home, runtime } = await bootSkills([useTools([call('load_skill', { name: 's0499' })]), say('ok')]);
    const root = path.join(home, '.mewcode', 'skills');
    for (let i = 0; i < 500; i++) writeSkill(root, `s${String(i).padStart(4, '0')}`, { name: `s${String(i).padStart(4, '0')}`, description: 'd'.repeat(1000) }, `BODY ${i}\n`);
    await runtime.reload();
    // The stable prompt is built for the session when the run starts.
    await collect(kernel.run({ prompt: 'go', mode: 'bypassPermissions' }));
    const stable = model.requests[0]!.system.stable;
    const catalog = stable.slice(stable.indexOf('# Skills'));
    expect(catalog.length).toBeLessThan(MAX_CATALOG_CHARS + 100);
    expect(catalog).toMatch(/\(\d+ more skills not listed: the catalog is over 65536 characters\.\)/);
    expect(catalog).not.toContain('- s0499:');
    expect(toolResults(model.requests[1]!.messages)[0]!.isError).toBeUndefined();
    expect(model.requests[1]!.system.environment).toContain('BODY 499');
  }, 30_000);
});

describe('roots named by the project', () => {
  test('an extra root that reaches the project through another path (/proc/self/cwd, a link) is project scope: its scripts need trust', async () => {
    const home = temp('skills-home-');
    const project = temp('skills-project-');
    const other = temp('skills-elsewhere-');
    const dir = writeSkill(path.join(project, 'evil'), 'runner', { name: 'runner', description: 'Runs things.' }, 'Run ./go.sh\n');
    writeFileSync(path.join(dir, 'go.sh'), 'echo pwned\n');
    symlinkSync(project, path.join(other, 'link-to-project'));
    const cwd = process.cwd();
    process.chdir(project);
    try {
      for (const extra of ['/proc/self/cwd/evil', path.join(other, 'link-to-project', 'evil')]) {
        const roots = skillRoots(home, project, [extra]);
        expect(roots.find((root) => root.dir === extra)).toEqual({ dir: extra, scope: 'project', project });
        const catalog = await loadCatalog(roots, { projectTrusted: false });
        expect(catalog.get('runner')).toBeUndefined();
        expect(catalog.problems.map((p) => p.message)).toContain('the project\'s skill "runner" carries scripts (go.sh); it loads once you trust the project (--trust-project)');
      }
    } finally {
      process.chdir(cwd);
    }
  });
});

describe("extra roots a project's configuration names outside the project", () => {
  /** A skill with a script in a folder outside the project, and the project (untrusted) or the user naming it. */
  async function rootsNamedIn(where: 'project' | 'local' | 'user'): Promise<{ catalog: Awaited<ReturnType<typeof loadCatalog>>; outside: string }> {
    const home = temp('skills-home-');
    const project = temp('skills-project-');
    const outside = temp('skills-elsewhere-');
    const dir = writeSkill(outside, 'runner', { name: 'runner', description: 'Runs things.' }, 'Run ./go.sh\n');
    writeFileSync(path.join(dir, 'go.sh'), 'echo pwned\n');
    const secrets = temp('skills-secrets-');
    writeSkill(secrets, 'secret', { name: 'secret', description: 'Lives elsewhere.' }, 'SECRET BODY\n');
    symlinkSync(path.join(secrets, 'secret'), path.join(outside, 'linked'));
    const text = `skills:\n  extra_roots: [${JSON.stringify(outside)}]\n`;
    if (where === 'project') writeFileSync(path.join(project, '.mewcode.yaml'), text);
    else if (where === 'local') {
      // The project's local file is the repository's too (a clone can carry it).
      mkdirSync(path.join(project, '.mewcode'), { recursive: true });
      writeFileSync(path.join(project, '.mewcode', 'config.local.yaml'), text);
    } else {
      mkdirSync(path.join(home, '.mewcode'), { recursive: true });
      writeFileSync(path.join(home, '.mewcode', 'config.yaml'), text);
    }
    const trust = await createWorkspaceTrust({ projectRoot: project, homeDir: home, env: {} });
    const config = await loadConfig({ cwd: project, homeDir: home, trust });
    const roots = skillRoots(home, project, [outside], rootsWrittenByProject(config));
    return { catalog: await loadCatalog(roots, { projectTrusted: trust.isTrusted() }), outside };
  }

  test.each(['project', 'local'] as const)("named by an untrusted project's %s file: the repository's root, its skill's scripts need trust and its links out are refused", async (where) => {
    const { catalog } = await rootsNamedIn(where);
    expect(catalog.get('runner')).toBeUndefined();
    expect(catalog.get('secret')).toBeUndefined();
    const messages = catalog.problems.map((p) => p.message).join('\n');
    expect(messages).toContain('the project\'s skill "runner" carries scripts (go.sh); it loads once you trust the project (--trust-project)');
    expect(messages).toMatch(/SKILL\.md is a link to \S+\/secret\/SKILL\.md, outside the project/);
  });

  test("through the booted plugin: an untrusted project's outside root gives no skill with scripts, the user's does", async () => {
    for (const where of ['project', 'user'] as const) {
      const home = temp('skills-home-');
      const project = temp('skills-project-');
      const outside = temp('skills-elsewhere-');
      writeFileSync(path.join(writeSkill(outside, 'runner', { name: 'runner', description: 'Runs things.' }, 'Run ./go.sh\n'), 'go.sh'), 'echo pwned\n');
      const file = where === 'project' ? path.join(project, '.mewcode.yaml') : path.join(home, '.mewcode', 'config.yaml');
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, `skills:\n  watch: false\n  extra_roots: [${JSON.stringify(outside)}]\n`);
      const config = await loadConfig({ cwd: project, homeDir: home, trust: await createWorkspaceTrust({ projectRoot: project, homeDir: home, env: {} }) });
      const { runtime } = await bootSkills([], { home, project, config });
      const catalog = await runtime.reload();
      expect([where, catalog.get('runner')?.name]).toEqual([where, where === 'user' ? 'runner' : undefined]);
    }
  });

  test('named by the user: the user\'s own root, its skills load (links included)', async () => {
    const { catalog } = await rootsNamedIn('user');
    expect(catalog.get('runner')?.name).toBe('runner');
    expect(catalog.get('secret')?.name).toBe('secret');
  });
});

describe('K3 across a hot reload', () => {
  test('a skill added (and one removed) mid-session leaves the stable prompt byte-identical; the new one loads at once', async () => {
    const { kernel, model, home, runtime } = await bootSkills([say('one'), useTools([call('load_skill', { name: 'later' })]), say('two')]);
    const root = path.join(home, '.mewcode', 'skills');
    const first = writeSkill(root, 'first', { name: 'first', description: 'There from the start.' }, 'FIRST\n');
    await runtime.reload();
    await collect(kernel.run({ prompt: 'a', mode: 'bypassPermissions' }));
    writeSkill(root, 'later', { name: 'later', description: 'Added mid-session.' }, 'LATER BODY\n');
    rmSync(first, { recursive: true });
    await runtime.reload();
    await collect(kernel.run({ prompt: 'b', mode: 'bypassPermissions' }));
    const [a, b, c] = model.requests;
    expect(a!.system.stable).toContain('- first: There from the start.');
    expect(b!.system.stable).toBe(a!.system.stable);
    expect(c!.system.stable).toBe(a!.system.stable);
    expect(c!.system.environment).toContain('LATER BODY');
  });
});

describe('scripts behind links', () => {
  test('a project skill whose scripts are links (to a script file or to a folder of them) still needs trust', async () => {
    const home = temp('skills-home-');
    const project = temp('skills-project-');
    mkdirSync(path.join(project, 'tools'), { recursive: true });
    writeFileSync(path.join(project, 'tools', 'evil'), '#!/bin/sh\necho pwned\n', { mode: 0o755 });
    writeFileSync(path.join(project, 'tools', 'run.py'), 'print(1)\n');
    const skills = path.join(project, '.mewcode', 'skills');
    const file = writeSkill(skills, 'file-link', { name: 'file-link', description: 'x' }, 'Run ./go\n');
    symlinkSync(path.join(project, 'tools', 'evil'), path.join(file, 'go'));
    const folder = writeSkill(skills, 'dir-link', { name: 'dir-link', description: 'x' }, 'Run bin/run.py\n');
    symlinkSync(path.join(project, 'tools'), path.join(folder, 'bin'));
    writeSkill(skills, 'plain', { name: 'plain', description: 'x' }, 'Text only.\n');
    const untrusted = await loadCatalog(skillRoots(home, project), { projectTrusted: false });
    expect(untrusted.skills.map((s) => s.name)).toEqual(['plain']);
    expect(untrusted.problems.map((p) => p.message)).toEqual([
      'the project\'s skill "dir-link" carries scripts (bin/evil, bin/run.py); it loads once you trust the project (--trust-project)',
      'the project\'s skill "file-link" carries scripts (go); it loads once you trust the project (--trust-project)',
    ]);
    expect((await loadCatalog(skillRoots(home, project), { projectTrusted: true })).skills.map((s) => s.name)).toEqual(['dir-link', 'file-link', 'plain']);
  });
});

describe('the unknown-skill result', () => {
  const named = (count: number, extra: Partial<Skill> = {}): Skill[] => Array.from({ length: count }, (_, i) => ({ name: `s${i}`, modelInvocable: true, ...extra }) as Skill);

  test(`names ${MAX_NAMES_LISTED} skills whole; one more is counted, not listed; user-only skills are not named`, () => {
    const exact = unknownSkillMessage('x', named(MAX_NAMES_LISTED));
    expect(exact).toBe(`Unknown skill "x". Available skills: ${named(MAX_NAMES_LISTED).map((s) => s.name).join(', ')}. Use one of these names exactly.`);
    const over = unknownSkillMessage('x', named(MAX_NAMES_LISTED + 1));
    expect(over).toBe(`Unknown skill "x". Available skills: ${named(MAX_NAMES_LISTED).map((s) => s.name).join(', ')}, … and 1 more. Use one of these names exactly.`);
    expect(unknownSkillMessage('x', named(2, { modelInvocable: false }))).toBe('Unknown skill "x". No skills are installed. Use one of these names exactly.');
  });
});

describe('hostile YAML', () => {
  test('an alias bomb (billion laughs) in one SKILL.md skips that folder; the rest of the catalog loads', async () => {
    const root = temp('skills-root-');
    const bomb = ['a: &a [x,x,x,x,x,x,x,x,x,x]', ...['b', 'c', 'd', 'e', 'f'].map((key, i) => `${key}: &${key} [${Array(10).fill(`*${'abcde'[i]}`).join(',')}]`)].join('\n');
    const file = path.join(writeSkill(root, 'bomb', { name: 'bomb' }, 'x\n'), 'SKILL.md');
    writeFileSync(file, `---\nname: bomb\n${bomb}\n---\nbody\n`);
    writeSkill(root, 'fine', { name: 'fine', description: 'Fine.' }, 'ok\n');
    const catalog = await loadCatalog([{ dir: root, scope: 'user' }], { projectTrusted: true });
    expect(catalog.skills.map((s) => s.name)).toEqual(['fine']);
    expect(catalog.problems).toEqual([{ file, skipped: true, message: expect.stringMatching(/^line 2: invalid YAML in the frontmatter: Excessive alias count/) }]);
  });
});
