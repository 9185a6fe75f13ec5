/**
 * Nested skills folders through the built CLI: a monorepo's `packages/api/.claude/skills` is found
 * when read_file first touches a file there; the skill is announced with that result (the cached
 * system block never changes) and load_skill loads it.
 */
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario, toolResultOf, writeFileAndDirs as write } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

test.concurrent('packages/api/.claude/skills: announced with the first read there, then loaded by load_skill', async () => {
  const turns = [
    { toolCalls: [{ id: 'r', name: 'read_file', input: { file_path: 'packages/api/index.js' } }] },
    { toolCalls: [{ id: 'l', name: 'load_skill', input: { name: 'apiskill' } }] },
    { text: 'done' },
  ];
  await scenario(turns, async (s) => {
    write(join(s.cwd, 'packages', 'api', '.claude', 'skills', 'apiskill', 'SKILL.md'), '---\nname: apiskill\ndescription: APISKILL-DESC\n---\nAPISKILL-BODY\n');
    write(join(s.cwd, 'packages', 'api', 'index.js'), 'x\n');
    const r = await s.run(['-p', 'go', '--output-format', 'json']);
    expect(r.code).toBe(0);
    const [first, second, third] = s.requests.map((q) => q.body);
    expect(first.system[0].text).not.toContain('APISKILL-DESC');
    expect(JSON.stringify(toolResultOf(s.requests, 'r').content)).toContain('- apiskill: APISKILL-DESC');
    expect(toolResultOf(s.requests, 'l').is_error ?? false).toBe(false);
    expect(third.system[1].text).toContain('APISKILL-BODY');
    expect(second.system[0]).toEqual(first.system[0]);
    expect(third.system[0]).toEqual(first.system[0]);
  });
});
