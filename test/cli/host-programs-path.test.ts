/**
 * Every program MewCode itself starts on the host in an untrusted project is found outside the
 * project: the sandbox program (bwrap, at start-up), the sandbox's watchdog shell (`cat`,
 * `sleep`, `rmdir`), the user's own MCP servers (`npx`). A repository commits programs of those
 * names in node_modules/.bin, and the user's PATH leads there, relatively or absolutely (direnv's
 * `PATH_add node_modules/.bin`). None may run; the session works as usual.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, runCli, scenario, tempDir, writeFileAndDirs } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const PLANTED = ['bwrap', 'npx', 'cat', 'sleep', 'rmdir', 'rm', 'my-mcp-server'];

/** The repository's programs: each one notes that it ran, then does nothing. */
function plantPrograms(project: string, canary: string): void {
  for (const name of PLANTED) {
    const file = join(project, 'node_modules', '.bin', name);
    writeFileAndDirs(file, `#!/bin/sh\necho "${name}" >> '${canary}'\nexit 1\n`);
    chmodSync(file, 0o755);
  }
}

test.each([
  ['an absolute entry inside the project (direnv PATH_add)', (project: string) => `${project}/node_modules/.bin`],
  ['a relative entry', () => 'node_modules/.bin'],
])('%s: no planted program runs on the host, at start-up or around a bash call', async (_what, entry) => {
  await scenario([{ toolCalls: [{ name: 'bash', input: { command: 'echo hello from bash' } }] }, { text: 'done' }], async (s) => {
    const canary = join(tempDir('mewcode-canary-'), 'ran');
    plantPrograms(s.cwd, canary);
    // The user's own MCP servers: one started with npx, one only the project's PATH entry would find.
    writeFileAndDirs(
      join(s.home, '.mewcode', 'config.yaml'),
      'mcp_servers:\n  memory:\n    type: stdio\n    command: npx\n    args: ["-y", "--offline", "mewcode-no-such-package"]\n  mine:\n    type: stdio\n    command: my-mcp-server\n',
    );
    const result = await s.run(['-p', 'go', '--output-format', 'json'], { env: { PATH: `${entry(s.cwd)}:${process.env.PATH}` } });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).result).toBe('done');
    const bash = s.requests.at(-1)!.body.messages.at(-1).content.find((block: { type: string }) => block.type === 'tool_result');
    expect(JSON.stringify(bash.content)).toContain('hello from bash');
    // The watchdog outlives the run by design; give it its moment to read (and, before, run `cat`).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(existsSync(canary) ? readFileSync(canary, 'utf8') : '').toBe('');
  });
}, 60_000);

test('an entry inside the git work tree around the project (started in a sub-folder) is skipped too', async () => {
  await scenario([{ text: 'done' }], async (s) => {
    const canary = join(tempDir('mewcode-canary-'), 'ran');
    writeFileSync(join(s.cwd, '.git'), 'gitdir: /nonexistent\n'); // a work tree's root marker
    plantPrograms(s.cwd, canary);
    const sub = join(s.cwd, 'src');
    writeFileAndDirs(join(sub, 'index.ts'), 'export {};\n');
    const result = await runCli(['-p', 'go', '--output-format', 'json'], { cwd: sub, env: { ...s.env, PATH: `${s.cwd}/node_modules/.bin:${process.env.PATH}` } });
    expect(result.code).toBe(0);
    expect(existsSync(canary) ? readFileSync(canary, 'utf8') : '').toBe('');
  });
}, 60_000);

test("the bash tool's own shell is never one found in the project, sandbox off: an approved command runs through the system's bash, with the user's PATH", async () => {
  await scenario([{ toolCalls: [{ name: 'bash', input: { command: 'case ":$PATH:" in *":$PWD/node_modules/.bin:"*) echo has-entry;; esac; echo shell-ok' } }] }, { text: 'done' }], async (s) => {
    const canary = join(tempDir('mewcode-canary-'), 'ran');
    const planted = join(s.cwd, 'node_modules', '.bin', 'bash');
    writeFileAndDirs(planted, `#!/bin/sh\necho bash >> '${canary}'\nexec /bin/sh "$@"\n`);
    chmodSync(planted, 0o755);
    writeFileAndDirs(join(s.home, '.mewcode', 'settings.yaml'), 'sandbox: false\n');
    const result = await s.run(['-p', 'go', '--output-format', 'json', '--permission-mode', 'bypassPermissions'], { env: { PATH: `${s.cwd}/node_modules/.bin:${process.env.PATH}` } });
    expect(result.code).toBe(0);
    const output = JSON.stringify(s.requests.at(-1)!.body.messages.at(-1).content);
    // The command still sees the user's PATH, project entry included; only the shell is chosen outside it.
    expect(output).toContain('has-entry\\nshell-ok');
    expect(existsSync(canary) ? readFileSync(canary, 'utf8') : '').toBe('');
  });
}, 60_000);
