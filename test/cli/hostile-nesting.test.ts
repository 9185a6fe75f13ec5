// A hostile repository's deeply nested settings (JSON and YAML) and YAML alias bombs (settings and
// a SKILL.md) do not crash start-up: each file is refused with a warning naming it and the limit,
// the rest loads, the run answers. Run several times: the crash this guards against (V8 aborting
// when a stack overflow lands in its regexp compiler) struck only some starts.
import { join } from 'node:path';
import { MAX_NESTING_DEPTH } from '../../config/nesting-depth.js';
import { prepareCli, removeTempDirs, scenario, writeFileAndDirs as write } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

function plantHostileProject(cwd: string): void {
  const lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i < 9; i++) lines.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(',')}]`);
  write(join(cwd, '.claude/skills/a/SKILL.md'), `---\nname: a\ndescription: d\n${lines.join('\n')}\n---\nbody\n`);
  write(join(cwd, '.claude/skills/deep/SKILL.md'), `---\nname: deep\ndescription: d\nx: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n---\nbody\n`);
  write(join(cwd, '.claude/skills/fine/SKILL.md'), '---\nname: fine\ndescription: a fine skill\n---\nbody\n');
  write(join(cwd, '.mewcode.yaml'), `${lines.join('\n')}\n`);
  write(join(cwd, '.claude/settings.json'), `{"permissions":{"deny":${'['.repeat(200_000)}${']'.repeat(200_000)}}}`);
  write(join(cwd, '.mewcode/settings.yaml'), `x: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`);
}

test.concurrent('deep nesting and alias bombs: exit 0 on every start, one warning per file naming it', async () => {
  await scenario([{ text: 'one' }, { text: 'two' }, { text: 'three' }, { text: 'four' }], async (s) => {
    plantHostileProject(s.cwd);
    for (let run = 0; run < 4; run++) {
      const r = await s.run(['-p', 'hi'], { timeoutMs: 60_000 });
      expect(r.stderr).not.toContain('FATAL');
      expect(r.stderr).not.toContain('Maximum call stack');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(['one', 'two', 'three', 'four'][run]);
      expect(r.stderr).toContain(`${join(s.cwd, '.claude/settings.json')}:1:1: nested more than ${MAX_NESTING_DEPTH} levels deep`);
      expect(r.stderr).toContain(`${join(s.cwd, '.mewcode/settings.yaml')}:1:1: nested more than ${MAX_NESTING_DEPTH} levels deep`);
      expect(r.stderr).toContain(join(s.cwd, '.mewcode.yaml'));
    }
    // The skills' problems are listed: the bomb and the deep frontmatter are skipped, the rest loads.
    const list = await s.run(['skills', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout + list.stderr).toContain(`${join(s.cwd, '.claude/skills/deep/SKILL.md')}: skipped`);
    expect(list.stdout + list.stderr).toContain(`more than ${MAX_NESTING_DEPTH} levels deep`);
    expect(list.stdout + list.stderr).toContain(`${join(s.cwd, '.claude/skills/a/SKILL.md')}: skipped`);
    // The fine skill still loads: the model is offered it.
    expect(JSON.stringify(s.requests[0]!.body.system)).toContain('a fine skill');
  });
}, 300_000);
