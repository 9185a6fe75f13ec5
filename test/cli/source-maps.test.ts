// The built CLI is plain ES modules with source maps: under MEWCODE_DEBUG (or --debug) a stack
// trace names the TypeScript sources and lines, for an error thrown in a plugin and in a built-in
// tool, and nothing in it names the machine the bundle was built on. The bundle is copied to a
// directory of its own first, as an installed package sits apart from the checkout it was built in.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, prepareCli, removeTempDirs, scenario, tempDir, type CliResult } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

/** dist/, the launcher and the manifest in a directory of their own; the dependencies linked in. */
function installedCopy(): string {
  const root = tempDir('mewcode-installed-');
  cpSync(join(REPO_ROOT, 'dist'), join(root, 'dist'), { recursive: true, filter: (source) => !source.includes('scripted-server') && !source.includes(`${join('dist', 'types')}`) });
  mkdirSync(join(root, 'bin'));
  cpSync(join(REPO_ROOT, 'bin', 'mewcode.js'), join(root, 'bin', 'mewcode.js'));
  cpSync(join(REPO_ROOT, 'package.json'), join(root, 'package.json'));
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  return root;
}

/** A project plugin whose tool records two stacks: its own error's and one thrown inside grep. */
const PROBE_PLUGIN = `import { writeFileSync } from 'node:fs';
export default {
  name: 'stack-probe',
  version: '1.0.0',
  apply(kernel) {
    kernel.tools.register({
      name: 'probe',
      description: 'records stacks',
      inputSchema: { type: 'object', properties: {} },
      readOnly: true,
      async execute() {
        const fromPlugin = new Error('thrown by a plugin');
        let fromBuiltIn;
        try {
          // A built-in tool's own method, given no input (its execute runs only through the gate).
          await kernel.tools.get('grep').permissionTarget(undefined);
        } catch (error) {
          fromBuiltIn = error;
        }
        writeFileSync(process.env.STACKS_FILE, JSON.stringify({ plugin: fromPlugin.stack, builtIn: fromBuiltIn?.stack ?? 'grep did not throw: ' + String(fromBuiltIn) }));
        throw fromPlugin;
      },
    });
  },
};
`;

function runInstalled(installed: string, args: string[], options: { cwd: string; env: Record<string, string | undefined> }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(installed, 'bin', 'mewcode.js'), ...args], { cwd: options.cwd, env: options.env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

async function stacksOf(debug: Record<string, string>): Promise<{ plugin: string; builtIn: string; installed: string }> {
  const installed = installedCopy();
  return scenario([{ toolCalls: [{ id: 'toolu_probe', name: 'probe', input: {} }] }, { text: 'Probed.' }], async (s) => {
    writeFileSync(join(s.cwd, 'stack-probe.mjs'), PROBE_PLUGIN);
    writeFileSync(join(s.cwd, '.mewcode.yaml'), 'plugins: [./stack-probe.mjs]\n');
    const stacksFile = join(s.home, 'stacks.json');
    const result = await runInstalled(installed, ['--trust-project', '-p', 'probe'], { cwd: s.cwd, env: { ...s.env, ...debug, STACKS_FILE: stacksFile } });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    expect(s.requests).toHaveLength(2);
    return { ...(JSON.parse(readFileSync(stacksFile, 'utf8')) as { plugin: string; builtIn: string }), installed };
  });
}

const frames = (stack: string): string[] => stack.split('\n').filter((line) => /^\s+at /.test(line));

test('under MEWCODE_DEBUG, stacks from a plugin and from a built-in tool name .ts files and lines of the installed copy', async () => {
  const { plugin, builtIn, installed } = await stacksOf({ MEWCODE_DEBUG: 'plugins' });
  // The plugin's own frame, then the kernel's tool runner: TypeScript sources, beside the installed dist/.
  expect(frames(plugin)[0]).toContain('stack-probe.mjs');
  expect(frames(plugin).some((line) => line.includes(`${installed}/kernel/`) && /\.ts:\d+:\d+\)?$/.test(line))).toBe(true);
  // The built-in tool's error: its first frame is in a plugin's or the SDK's TypeScript source.
  expect(builtIn).not.toContain('did not throw');
  expect(frames(builtIn)[0]).toMatch(new RegExp(`${installed}/(plugins|sdk)/[\\w/.-]+\\.ts:\\d+:\\d+\\)?$`));
  for (const stack of [plugin, builtIn]) {
    expect(frames(stack).filter((line) => line.includes('/dist/'))).toEqual([]);
    expect(stack).not.toContain(REPO_ROOT);
  }
}, 60_000);

test('without it, the same stacks name the bundle (source maps cost nothing in an ordinary run)', async () => {
  const { plugin } = await stacksOf({});
  expect(frames(plugin).some((line) => line.includes('/dist/'))).toBe(true);
  expect(frames(plugin).filter((line) => /\.ts:\d+/.test(line))).toEqual([]);
}, 60_000);

test("the bundle and its source maps hold no path of the build machine, and name their sources relative to dist/", () => {
  const dist = join(REPO_ROOT, 'dist');
  const files = ['mewcode.js', 'index.js', 'sdk.js', ...readdirSync(join(dist, 'chunks')).map((file) => join('chunks', file))];
  expect(files.filter((file) => file.endsWith('.map')).length).toBeGreaterThan(10);
  for (const file of files) {
    const text = readFileSync(join(dist, file), 'utf8');
    expect([file, text.includes(REPO_ROOT)]).toEqual([file, false]);
    if (!file.endsWith('.map')) continue;
    const sources = (JSON.parse(text) as { sources: string[] }).sources;
    expect([file, sources.filter((source) => !source.startsWith('../'))]).toEqual([file, []]);
  }
  // No V8 code cache, no CommonJS start-up script, no program loader: plain ES modules only.
  const all = readdirSync(dist, { recursive: true }) as string[];
  expect(all.filter((file) => /\.(cache|cjs)$/.test(file) || /program/.test(file))).toEqual([]);
});
