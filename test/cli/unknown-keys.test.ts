// A misspelt key in MewCode's own config or settings file is reported (file:line, the key, the
// nearest known key), in a run and by `mewcode doctor`; the rest of the file still loads.
import { join } from 'node:path';
import { prepareCli, removeTempDirs, runCli, scenario, writeFileAndDirs } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

describe('unknown top-level keys', () => {
  test.concurrent('user settings `permisions:` and config `max_turn:` / `provder:` are each named once, with a suggestion', async () => {
    await scenario([{ text: 'done' }], async (s) => {
      const settings = join(s.home, '.mewcode', 'settings.yaml');
      const config = join(s.home, '.mewcode', 'config.yaml');
      writeFileAndDirs(settings, 'sandbox: {}\npermisions:\n  deny: ["Read"]\n');
      writeFileAndDirs(config, 'max_turns: 5\nmax_turn: 1\nprovder: x\nzzzqqq: 1\n');
      const project = join(s.cwd, '.mewcode', 'settings.yaml');
      writeFileAndDirs(project, 'hook:\n  x: 1\n');
      const r = await s.run(['-p', 'hi']);
      expect(r.code).toBe(0);
      const lines = r.stderr.split('\n');
      const about = (text: string) => lines.filter((line) => line.includes(text));
      expect(about('"permisions"')).toEqual([expect.stringMatching(new RegExp(`${settings}:2:\\d+: unknown key "permisions" \\(did you mean "permissions"\\?\\)`))]);
      expect(about('"max_turn"')).toEqual([expect.stringMatching(new RegExp(`${config}:2:\\d+: unknown key "max_turn" \\(did you mean "max_turns"\\?\\)`))]);
      expect(about('"provder"')).toEqual([expect.stringMatching(new RegExp(`${config}:3:\\d+: unknown key "provder" \\(did you mean "provider"\\?\\)`))]);
      expect(about('"zzzqqq"')).toEqual([expect.stringMatching(new RegExp(`${config}:4:\\d+: unknown key "zzzqqq"; ignored`))]);
      expect(about('"hook"')).toEqual([expect.stringMatching(new RegExp(`${project}:1:\\d+: unknown key "hook" \\(did you mean "hooks"\\?\\)`))]);
      expect(r.stderr).not.toMatch(/unknown key "(sandbox|max_turns)"/);

      const doctor = await runCli(['doctor'], { cwd: s.cwd, env: { PATH: process.env.PATH, HOME: s.home, ANTHROPIC_API_KEY: 'k', MEWCODE_MODEL: 'x', MEWCODE_PROVIDER: 'anthropic' } });
      const warned = doctor.stdout.split('\n').filter((line) => /unknown key/.test(line));
      expect(warned.some((line) => line.includes('"permisions"'))).toBe(true);
      expect(warned.some((line) => line.includes('"max_turn"'))).toBe(true);
      expect(doctor.stdout).toMatch(/warn.*unknown key|unknown key[\s\S]*warn/i);
    });
  });
});
