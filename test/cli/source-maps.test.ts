// The built CLI is plain ES modules with source maps: under --debug (or `plugins` or `all` in
// MEWCODE_DEBUG, and only then) a stack trace names the TypeScript sources and lines, for an error
// thrown in a plugin and in a built-in tool, and what MewCode prints on stderr when a tool throws
// carries that stack; nothing in it names the machine the bundle was built on. The bundle is
// copied to a directory of its own first, as an installed package sits apart from the checkout it
// was built in.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
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

test.each<Record<string, string>>([{}, { MEWCODE_DEBUG: 'sdk' }, { MEWCODE_DEBUG: '1' }])('without it (%j), the same stacks name the bundle (source maps cost nothing when no stack is shown)', async (env) => {
  const { plugin } = await stacksOf(env);
  expect(frames(plugin).some((line) => line.includes('/dist/'))).toBe(true);
  expect(frames(plugin).filter((line) => /\.ts:\d+/.test(line))).toEqual([]);
}, 60_000);

/** A project plugin whose tool throws. */
const THROWER_PLUGIN = `export default {
  name: 'thrower',
  version: '1.0.0',
  apply(kernel) {
    kernel.tools.register({
      name: 'boom',
      description: 'throws',
      inputSchema: { type: 'object', properties: {} },
      readOnly: true,
      async execute() {
        throw new Error('boom from a plugin tool');
      },
    });
  },
};
`;

/**
 * A stand-in for the output-limits plugin (\`replaces:\`, as a plugin may) written against an
 * older contract: its OutputLimits has the caps but no cutLine, so the built-in read_file throws
 * inside its own code when the call loads it.
 */
const OLD_LIMITS_PLUGIN = `import { definePlugin, ContainerModule, TOKENS } from 'mewcode/sdk';
export default definePlugin({
  name: 'output-limits',
  version: '0.0.1',
  replaces: ['output-limits'],
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.OutputLimits).toConstantValue({
      readMaxLines: 2000, readMaxBytes: 262144, readLineMaxChars: 2000, grepLineMaxChars: 500, bashMaxLines: 200, bashMaxBytes: 8000,
      bashSpillMaxBytes: 67108864, editMaxFileBytes: 67108864, editDiffContextLines: 3, editDiffMaxLines: 80, editDiffLineMaxChars: 500,
      editHintMaxLines: 20, editHintLineMaxChars: 300, searchMaxResults: 100, auditMaxBytes: 5242880, auditKeepFiles: 3,
      auditTargetMaxChars: 20000, auditReasonMaxChars: 2000, spillMaxAgeMs: 604800000,
      spillDir: () => '.mewcode/tool-output',
    });
  }),
});
`;

const FAULT_TURNS = [{ toolCalls: [{ id: 'r1', name: 'read_file', input: { file_path: 'a.txt' } }, { id: 'b1', name: 'boom', input: {} }] }, { text: 'Done.' }];
const SHORT_RESULTS = ['Tool read_file failed: limits.cutLine is not a function', 'Tool boom failed: boom from a plugin tool'];

/** The installed copy, both plugins in a project that finds \`mewcode\` there, one run. */
async function faultRun(args: string[], env: Record<string, string>): Promise<{ stderr: string; results: string[]; installed: string }> {
  const installed = installedCopy();
  return scenario(FAULT_TURNS, async (s) => {
    writeFileSync(join(s.cwd, 'a.txt'), 'alpha\n');
    writeFileSync(join(s.cwd, 'thrower.mjs'), THROWER_PLUGIN);
    writeFileSync(join(s.cwd, 'old-limits.mjs'), OLD_LIMITS_PLUGIN);
    writeFileSync(join(s.cwd, '.mewcode.yaml'), 'plugins: [./old-limits.mjs, ./thrower.mjs]\n');
    mkdirSync(join(s.cwd, 'node_modules'));
    symlinkSync(installed, join(s.cwd, 'node_modules', 'mewcode'), 'dir');
    const result = await runInstalled(installed, ['--trust-project', ...args, 'go'], { cwd: s.cwd, env: { ...s.env, ...env } });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    expect(s.requests).toHaveLength(2);
    const results = (s.requests[1]!.body.messages as any[]).flatMap((message) => (Array.isArray(message.content) ? message.content : [])).filter((block: any) => block.type === 'tool_result');
    return { stderr: result.stderr, results: results.map((block: any) => String(typeof block.content === 'string' ? block.content : JSON.stringify(block.content))), installed };
  });
}

/** The stack printed after the warning that starts with `headline`, up to the next line that is not a frame. */
function printedStack(stderr: string, headline: string): string[] {
  const lines = stderr.split('\n');
  const at = lines.findIndex((line) => line.startsWith(`mewcode: warning: ${headline}`));
  expect([headline, at >= 0 ? 'printed' : stderr]).toEqual([headline, 'printed']);
  const stack: string[] = [];
  for (const line of lines.slice(at + 2)) {
    if (!/^\s+at /.test(line)) break;
    stack.push(line);
  }
  return stack;
}

test.each([
  ['--debug, -p', ['--debug', '-p'], {}],
  ['--debug, stream-json', ['--debug', '--output-format', 'stream-json', '-p'], {}],
  ['MEWCODE_DEBUG=all and NODE_OPTIONS, -p', ['-p'], { MEWCODE_DEBUG: 'all', NODE_OPTIONS: '--max-old-space-size=4096' }],
  ['MEWCODE_DEBUG=plugins and NODE_OPTIONS, stream-json', ['--output-format', 'stream-json', '-p'], { MEWCODE_DEBUG: 'plugins', NODE_OPTIONS: '--max-old-space-size=4096' }],
])('%s: a tool that throws, a plugin\'s and a built-in one, is reported on stderr with its stack in .ts files (and the plugin\'s own)', async (_name, args, env) => {
  const { stderr, results, installed } = await faultRun(args, env);
  const plugin = printedStack(stderr, "plugin thrower's tool boom threw: boom from a plugin tool");
  expect(plugin[0]).toMatch(/\/thrower\.mjs:\d+:\d+\)?$/);
  expect(plugin.some((line) => line.includes(`${installed}/kernel/tool-runner.ts:`))).toBe(true);
  // The built-in tool's own frame comes first: the line of read_file that called the missing method.
  const builtIn = printedStack(stderr, "plugin tool-read-file's tool read_file threw: limits.cutLine is not a function");
  expect(builtIn[0]).toMatch(new RegExp(`${installed}/plugins/tool-read-file/read-file-tool\\.ts:\\d+:\\d+\\)?$`));
  for (const stack of [plugin, builtIn]) expect(stack.filter((line) => line.includes('/dist/'))).toEqual([]);
  // The model gets the short message, never the stack.
  expect(results).toEqual(SHORT_RESULTS);
}, 60_000);

test.each<Record<string, string>>([{}, { MEWCODE_DEBUG: 'sdk' }])('without it (%j), a tool that throws is only its result: nothing on stderr', async (env) => {
  const { stderr, results } = await faultRun(['-p'], env);
  expect(stderr).not.toContain('threw');
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(results).toEqual(SHORT_RESULTS);
}, 60_000);

/** The paths among `paths` (relative to `from`) that lead out of the package: the build machine's own folders. */
function outsideThePackage(from: string, paths: readonly string[]): string[] {
  return paths.filter((source) => {
    const inPackage = relative(REPO_ROOT, resolve(from, source));
    return inPackage.startsWith('..') || isAbsolute(inPackage);
  });
}

test("the bundle and its source maps hold no path of the build machine: sources and module names stay inside the package", () => {
  const dist = join(REPO_ROOT, 'dist');
  const files = (readdirSync(dist, { recursive: true }) as string[]).filter((file) => /\.js(\.map)?$/.test(file) && !file.startsWith('types') && !file.includes('scripted-server'));
  expect(files.filter((file) => file.endsWith('.map')).length).toBeGreaterThan(10);
  let commonJsModules = 0;
  for (const file of files) {
    const text = readFileSync(join(dist, file), 'utf8');
    expect([file, text.includes(REPO_ROOT)]).toEqual([file, false]);
    if (file.endsWith('.map')) {
      // Relative to the map's folder; with node_modules a symlink, a source must still name it, not its target.
      const sources = (JSON.parse(text) as { sources: string[] }).sources;
      expect([file, sources.filter((source) => !source.startsWith('../'))]).toEqual([file, []]);
      expect([file, outsideThePackage(dirname(join(dist, file)), sources)]).toEqual([file, []]);
    } else {
      // A bundled CommonJS module's key (`__commonJS({"node_modules/tapable/lib/Hook.js"(exports, module){…`): relative to the package.
      const keys = [...text.matchAll(/__commonJS\(\{\s*"([^"]+)"\s*\(exports,\s*module\)/g)].map((match) => match[1]!);
      commonJsModules += keys.length;
      expect([file, outsideThePackage(REPO_ROOT, keys)]).toEqual([file, []]);
    }
  }
  expect(commonJsModules).toBeGreaterThan(10);
  // No V8 code cache, no CommonJS start-up script, no program loader: plain ES modules only.
  const all = readdirSync(dist, { recursive: true }) as string[];
  expect(all.filter((file) => /\.(cache|cjs)$/.test(file) || /(^|\/)program(-loader|-bundle)?\.[cm]?js$/.test(file))).toEqual([]);
});
