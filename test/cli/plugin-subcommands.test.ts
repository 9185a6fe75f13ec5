/**
 * Subcommands and doctor checks come from the plugins (types/cli.ts), through the built CLI: a
 * configuration that disables or replaces the `session` plugin changes `mewcode sessions`; a
 * third-party plugin's command and check show in `--help`, run, and appear in `mewcode doctor`;
 * a clash is refused naming both plugins. A plugin's failing tap is warned about once, not per
 * call, and `--debug` / `MEWCODE_DEBUG=plugins` show its stack in the plugin's own file.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario, type Scenario } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

/** A plugin file in the user's home, named in ~/.mewcode/config.yaml (user-level: no trust needed). */
function userConfig(s: Scenario, yaml: string, plugins: Record<string, string> = {}): Record<string, string> {
  const dir = join(s.home, '.mewcode');
  mkdirSync(dir, { recursive: true });
  const files: Record<string, string> = {};
  for (const [name, source] of Object.entries(plugins)) {
    files[name] = join(s.home, `${name}.mjs`);
    writeFileSync(files[name]!, source);
  }
  const entries = Object.values(files);
  writeFileSync(join(dir, 'config.yaml'), `${yaml}${entries.length > 0 ? `plugins:\n${entries.map((f) => `  - ${f}\n`).join('')}` : ''}`);
  return files;
}

const GREETER = `export default {
  name: 'greeter',
  subcommands: [{
    name: 'hello',
    usage: 'hello <who>',
    summary: 'greets whoever is named, from the greeter plugin',
    async run(context) {
      context.out('hello, ' + context.argv.join(' ') + ' from ' + context.cwd + '\\n');
      return context.argv.length > 0 ? 0 : 2;
    },
  }],
  doctorChecks: [{
    name: 'greeting',
    run: (context) => [{ status: 'warn', check: 'greeting', message: 'no greeting configured for ' + context.cwd, hint: 'say hello' }],
  }],
};
`;

describe('the session plugin owns `mewcode sessions`', () => {
  test.concurrent('disabled by configuration: a clear message naming the plugin, exit 2, no request', async () => {
    await scenario([{ text: 'never' }], async (s) => {
      userConfig(s, 'disable: [session]\n');
      const r = await s.run(['sessions']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('mewcode: the command "sessions" is not available: plugin session, which provides it, is not loaded here (disabled or replaced by the configuration)');
      expect(r.stdout).toBe('');
      expect(s.requests).toHaveLength(0);
    });
  });

  test.concurrent('replaced by a plugin that declares replaces: its own `sessions` runs, the old one does not', async () => {
    await scenario([], async (s) => {
      userConfig(s, '', {
        'my-sessions': `export default {
  name: 'my-sessions',
  replaces: ['session'],
  subcommands: [{ name: 'sessions', usage: 'sessions', summary: 'sessions kept elsewhere', run(context) { context.out('sessions live in the cloud now\\n'); return 0; } }],
};
`,
      });
      const r = await s.run(['sessions']);
      expect(r).toMatchObject({ code: 0, stdout: 'sessions live in the cloud now\n' });
      expect(r.stdout).not.toContain('No saved sessions');
    });
  });

  test.concurrent('another plugin taking the name without replaces is refused naming both; the built-in answers', async () => {
    await scenario([], async (s) => {
      userConfig(s, '', {
        squatter: `export default { name: 'squatter', subcommands: [{ name: 'sessions', usage: 'sessions', summary: 'x', run(context) { context.out('squatted\\n'); return 0; } }] };\n`,
      });
      const r = await s.run(['sessions']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`No saved sessions in ${s.cwd}.`);
      expect(r.stdout).not.toContain('squatted');
      expect(r.stderr).toContain("plugin squatter: subcommand sessions is already contributed by plugin session; its sessions is not available (declare replaces: ['sessions'] to replace it)");
    });
  });
});

describe('a third-party plugin', () => {
  test.concurrent('its subcommand is in --help and runs with its arguments; its doctor check is a doctor line', async () => {
    await scenario([], async (s) => {
      userConfig(s, '', { greeter: GREETER });
      const help = await s.run(['--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^ {2}hello <who> +greets whoever is named, from the greeter plugin$/m);
      expect(help.stdout).toMatch(/^ {2}sessions +list this project's saved sessions/m); // the built-in plugins' too
      const hello = await s.run(['hello', 'there', '--loud']);
      expect(hello).toMatchObject({ code: 0, stdout: `hello, there --loud from ${s.cwd}\n`, stderr: '' });
      const doctor = await s.run(['doctor']);
      expect(doctor.stdout).toMatch(/^warn {2}greeting +no greeting configured for .* — say hello$/m);
      expect(s.requests).toHaveLength(0);
    });
  });

  test.concurrent('the build without it: the same word is a prompt, as any unknown word always was', async () => {
    await scenario([{ text: 'A prompt answered.' }], async (s) => {
      const r = await s.run(['-p', 'hello']);
      expect(r).toMatchObject({ code: 0, stdout: 'A prompt answered.\n' });
      expect(s.requests).toHaveLength(1);
    });
  });
});

describe("a plugin's failing tap", () => {
  const NOISY = `export default {
  name: 'noisy',
  apply(kernel) {
    kernel.hooks.postToolUse.tapPromise('noisy', async () => {
      throw new Error('noisy cannot count');
    });
  },
};
`;
  const turns = [
    { toolCalls: [{ id: 'toolu_1', name: 'read_file', input: { path: 'notes.txt' } }] },
    { toolCalls: [{ id: 'toolu_2', name: 'read_file', input: { path: 'notes.txt' } }] },
    { toolCalls: [{ id: 'toolu_3', name: 'read_file', input: { path: 'notes.txt' } }] },
    { text: 'Read it three times.' },
  ];
  const warningLines = (stderr: string): string[] => stderr.split('\n').filter((line) => line.includes('noisy cannot count'));

  test.concurrent('is warned about once for three calls, without a stack', async () => {
    await scenario(turns, async (s) => {
      const files = userConfig(s, '', { noisy: NOISY });
      writeFileSync(join(s.cwd, 'notes.txt'), 'cats\n');
      const r = await s.run(['-p', 'read notes.txt three times']);
      expect(r).toMatchObject({ code: 0, stdout: 'Read it three times.\n' });
      expect(s.requests).toHaveLength(4);
      expect(warningLines(r.stderr)).toEqual([expect.stringContaining('plugin noisy failed in hook postToolUse: noisy cannot count')]);
      expect(r.stderr).not.toContain(files.noisy!);
    });
  });

  test.concurrent.each([
    ['--debug', ['--debug'], {}],
    ['MEWCODE_DEBUG=plugins', [], { MEWCODE_DEBUG: 'plugins' }],
  ])('under %s: once, with its stack naming the plugin\'s own file', async (_label, flags, env) => {
    await scenario(turns, async (s) => {
      const files = userConfig(s, '', { noisy: NOISY });
      writeFileSync(join(s.cwd, 'notes.txt'), 'cats\n');
      const r = await s.run(['-p', 'read notes.txt three times', ...flags], { env });
      expect(r).toMatchObject({ code: 0, stdout: 'Read it three times.\n' });
      expect(warningLines(r.stderr)).toHaveLength(2); // the warning, and the stack's first line (the error itself)
      const frames = r.stderr.split('\n').filter((line) => /^\s+at /.test(line));
      expect(frames.length).toBeGreaterThan(0);
      expect(frames[0]).toContain(`${files.noisy}:5`); // the throw, in the plugin's own file and line
    });
  });
});

describe('a command that waits on something nothing keeps alive never ends as a silent success', () => {
  // The promise never settles and holds no timer, socket or process: Node's event loop empties.
  const STALLS = `export default {
  name: 'staller',
  subcommands: [{ name: 'stall', usage: 'stall', summary: 'waits forever', run: () => new Promise(() => {}) }],
  doctorChecks: [{ name: 'stall', run: () => new Promise(() => {}) }],
};
`;

  test.concurrent('a plugin subcommand: exit 1 and a message on stderr, not exit 0 and nothing', async () => {
    await scenario([], async (s) => {
      userConfig(s, '', { staller: STALLS });
      const r = await s.run(['stall']);
      expect(r.stderr).toContain('mewcode: mewcode stall stopped before it finished: everything it was waiting for was gone');
      expect(r.code).toBe(1);
    });
  });

  test.concurrent('`mewcode doctor` with a check that stalls: exit 1 and a message on stderr', async () => {
    await scenario([], async (s) => {
      userConfig(s, '', { staller: STALLS });
      const r = await s.run(['doctor']);
      expect(r.stderr).toContain('mewcode: mewcode doctor stopped before it finished');
      expect(r.code).toBe(1);
    });
  });
});
