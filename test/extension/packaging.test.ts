/**
 * Packaging (issue 7, point 6), against the BUILT dist/ (`npm test` builds first): the project is
 * packed as `npm publish` would pack it, the tarball is installed into a temporary project from
 * the npm cache / registry, and MewCode is used the three documented ways — `npx mewcode`, a
 * custom build calling `main(argv, plugins)`, and an external plugin package written against
 * `mewcode/sdk` and loaded through `plugins:`. The plugin, its package.json and the custom build
 * are the code blocks of the README's "Extending" section, taken as printed (each follows a
 * `<!-- compiled by test/extension/packaging.test.ts as PATH -->` marker) and compiled with strict
 * TypeScript against the packed declarations.
 *
  * `npm pack` packs the dist/ already built (the package has no `prepare` script: nothing rebuilds
 * the checkout, and nothing in the tarball points at a build script it does not hold; `prepack`
 * only checks that dist/ is a full build of this commit), which keeps this test at ≈20 s, ≈10 s
 * of it `npm install`.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import semver from 'semver';
import { startScriptedServer, type ScriptedServer, type ScriptedTurn } from '../scripted-server/index.js';

const REPO = path.resolve('.');
const OWN_MANIFEST = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as Record<string, any>;
/** The consumer project compiles with the TypeScript and Node types this repository uses. */
const TYPESCRIPT = `typescript@${readVersion('typescript')}`;
const NODE_TYPES = `@types/node@${readVersion('@types/node')}`;
/**
 * Published size budget: on 2026-12-07 3.12 MB packed, 12.5 MB unpacked once the bash grammar
 * (tree-sitter-bash.wasm, 1.36 MB; before, the tree-sitter-bash package was installed beside
 * MewCode, sources and native addon sources included) moved into dist/; 2.87 MB packed, 11.15 MB
 * unpacked before that (2.81 MB and under 11 MB that
 * morning; 2.61 MB packed on 2026-12-05, 2.2 MB on
 * 2026-12-01; since then the sandbox's judges and reviews — the git checks twice, in the CLI's
 * chunks and in the standalone sweep-recovery script —, the editor protocol's SDK, Claude Code
 * plugins and marketplaces): the bundle's chunks (the model, MCP and editor-protocol SDKs, the
 * terminal UI's React, Ink, Yoga and marked, highlight.js with 51 languages) and their source maps
 * (names and lines only, no source text), the declarations and the docs. The budget leaves ≈ 7 %
 * for growth: a dependency or source tree packed by mistake is far more.
 */
const MAX_PACKED_BYTES = 3_350_000;
const MAX_UNPACKED_BYTES = 13_400_000;
const MARKER = /<!-- compiled by test\/extension\/packaging\.test\.ts as (\S+) -->\s*```(\w+)\n([\s\S]*?)```/g;
const PLUGIN_DIR = 'mewcode-plugin-acme';
// skipLibCheck as `tsc --init` sets it: checking every .d.ts (the vendor SDKs' included) costs
// ≈20 s of CPU; this repository's own type-check covers the sources the declarations come from.
const STRICT = { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', types: ['node'], skipLibCheck: true };
const POLICY_REASON = 'force pushes are not allowed at Acme';

interface PackedFile {
  path: string;
  size: number;
}
interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: PackedFile[];
}
interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let workDir: string;
let project: string;
let home: string;
let packed: PackResult;
let readmeFiles: Map<string, string>;
let compilation: Promise<Run[]> | undefined;

beforeAll(async () => {
  for (const file of ['dist/mewcode.js', 'dist/index.js', 'dist/sdk.js', 'dist/types/index.d.ts', 'dist/types/sdk/index.d.ts']) {
    if (!existsSync(path.join(REPO, file))) throw new Error(`${file} is missing: run \`npm run build\` first (npm test does).`);
  }
  readmeFiles = extendingExamples();
  workDir = await mkdtemp(path.join(os.tmpdir(), 'mewcode-packaging-'));
  project = path.join(workDir, 'project');
  home = path.join(workDir, 'home');
  await mkdir(project);
  await mkdir(home);

  const pack = await run('npm', ['pack', '--json', '--pack-destination', workDir], { cwd: REPO });
  if (pack.code !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`);
  [packed] = JSON.parse(pack.stdout) as PackResult[];

  await writeJson(path.join(project, 'package.json'), { name: 'packaging-fixture', private: true, type: 'module' });
  const install = await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', path.join(workDir, packed.filename), TYPESCRIPT, NODE_TYPES],
    { cwd: project },
  );
  if (install.code !== 0) throw new Error(`npm install of the tarball failed:\n${install.stderr}`);

  // The plugin package lives beside the project and is linked in, as `npm link` or a workspace
  // would: Node follows the link, so its `mewcode/sdk` import resolves to the project's mewcode.
  for (const [file, text] of readmeFiles) {
    await mkdir(path.dirname(path.join(project, file)), { recursive: true });
    await writeFile(path.join(project, file), text);
  }
  await writeJson(path.join(project, PLUGIN_DIR, 'tsconfig.json'), { compilerOptions: { ...STRICT, declaration: true }, files: ['index.ts'] });
  await symlink(path.join('..', PLUGIN_DIR), path.join(project, 'node_modules', PLUGIN_DIR), 'dir');
  await cp(path.join(REPO, 'test/extension/fixtures/packaging/sdk-surface.ts.fixture'), path.join(project, 'sdk-surface.ts'));
  await writeJson(path.join(project, 'tsconfig.json'), { compilerOptions: STRICT, files: ['my-mewcode.ts', 'sdk-surface.ts'] });
}, 240_000);

afterAll(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('the tarball', () => {
  test('holds the bundle with its source maps, the declarations, the CLI and the docs; no tests or sources', () => {
    const files = packed.files.map((f) => f.path);
    const declared = [OWN_MANIFEST.bin.mewcode, OWN_MANIFEST.main, OWN_MANIFEST.types, ...exportTargets(OWN_MANIFEST.exports)].map((p: string) => p.replace(/^\.\//, ''));
    for (const file of declared) expect(files).toContain(file);
    expect(files).toEqual(expect.arrayContaining(['dist/sdk.js', 'dist/types/sdk/index.d.ts', 'README.md', 'package.json']));
    expect(files.filter((f) => f.startsWith('dist/types/')).length).toBeGreaterThan(50);

    expect(files.filter((f) => f.startsWith('test/') || f.includes('scripted-server'))).toEqual([]);
    expect(files.filter((f) => /\.(ts|mts|cts)$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
    // Every bundled file has its source map (stack traces under --debug name .ts files), and nothing else is code.
        // The one file that is neither: the bash grammar the shell parser loads (WebAssembly).
    expect(files).toContain('dist/tree-sitter-bash.wasm');
    const code = files.filter((f) => f.startsWith('dist/') && !f.startsWith('dist/types/') && !f.endsWith('.map') && f !== 'dist/tree-sitter-bash.wasm');
    expect(code.filter((f) => !f.endsWith('.js'))).toEqual([]);
    expect(code.filter((f) => !files.includes(`${f}.map`))).toEqual([]);
    expect(files.filter((f) => !/^(dist\/|bin\/mewcode\.js$|plugins\/[^/]+\/README\.md$|[A-Z]+\.md$|docs\/[a-z-]+\.md$|docs\/examples\/[a-z-]+\.mjs$|package\.json$)/.test(f))).toEqual([]);
    expect(packed.size).toBeLessThan(MAX_PACKED_BYTES);
    expect(packed.unpackedSize).toBeLessThan(MAX_UNPACKED_BYTES);
  });

  test('one copy of inversify and of tapable: `mewcode/sdk` loads the code the CLI and `mewcode` load', () => {
    const dist = path.join(project, 'node_modules', 'mewcode', 'dist');
    const inversify = filesDefining(dist, /\bvar ContainerModule\s*=\s*class\b/);
    const tapable = filesDefining(dist, /\bvar HookCodeFactory\s*=\s*class\b/);
    expect(inversify).toHaveLength(1);
    expect(tapable).toHaveLength(1);
    const sdk = importClosure(dist, 'sdk.js');
    const cli = importClosure(dist, 'mewcode.js');
    const index = importClosure(dist, 'index.js');
    expect(sdk).toContain(inversify[0]);
    expect(cli).toContain(inversify[0]);
    expect(index).toContain(inversify[0]);
    expect(cli).toContain(tapable[0]);
    expect(index).toContain(tapable[0]);
  });

  test('the packed manifest has no install-time script (nothing to run that the tarball does not hold)', () => {
    const manifest = JSON.parse(readFileSync(path.join(project, 'node_modules', 'mewcode', 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    const installTime = ['preinstall', 'install', 'postinstall', 'prepare', 'preprepare', 'postprepare'];
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => installTime.includes(name))).toEqual([]);
  });

    test('installing it builds nothing: no tree-sitter-bash (a native addon), and the shell parser reads the grammar from dist/', async () => {
    expect(existsSync(path.join(project, 'node_modules', 'tree-sitter-bash'))).toBe(false);
    const manifest = JSON.parse(readFileSync(path.join(project, 'node_modules', 'mewcode', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(manifest.dependencies)).not.toContain('tree-sitter-bash');
    // Not a plain line (a substitution, a loop): simple-syntax.ts passes it to the tree-sitter parser.
    const script = [
      "const { parseShellCommand } = await import('mewcode/sdk');",
      'const parsed = await parseShellCommand(\'echo $(date) && for f in *.ts; do cat "$f"; done\');',
      'process.stdout.write(JSON.stringify({ programs: parsed.segments.map((s) => s.argv[0]), error: parsed.parseError ?? null }));',
    ].join('\n');
    const result = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project, env: cliEnv() });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ programs: expect.arrayContaining(['echo', 'date', 'cat']), error: null });
  });

  test('`mewcode` and `mewcode/sdk` imported together share one instance of the contract', async () => {
    const script = [
      "const sdk = await import('mewcode/sdk');",
      "const mewcode = await import('mewcode');",
      "process.stdout.write(JSON.stringify({ tokens: sdk.TOKENS === mewcode.TOKENS, containerModule: typeof sdk.ContainerModule, main: typeof mewcode.main }));",
    ].join('\n');
    const result = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project, env: cliEnv() });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ tokens: true, containerModule: 'function', main: 'function' });
  });
});

test('`npx mewcode --version` runs the installed CLI', async () => {
  const result = await run('npx', ['--no', '--', 'mewcode', '--version'], { cwd: project, env: cliEnv() });
  expect(result).toMatchObject({ code: 0, stderr: '' });
  expect(result.stdout).toMatch(/^\d+\.\d+\.\d+ \(MewCode\)\n$/);
});

test("the README's version ranges accept the packed MewCode", async () => {
  const manifest = JSON.parse(readmeFiles.get(`${PLUGIN_DIR}/package.json`)!) as { peerDependencies: Record<string, string> };
  const installed = JSON.parse(readFileSync(path.join(project, 'node_modules/mewcode/package.json'), 'utf8')) as { version: string };
  expect(semver.satisfies(installed.version, manifest.peerDependencies.mewcode!)).toBe(true);
  const kernelRange = /kernel: '([^']+)'/.exec(readmeFiles.get(`${PLUGIN_DIR}/index.ts`)!)?.[1];
  const kernelVersion = (await run('npx', ['--no', '--', 'mewcode', '--version'], { cwd: project, env: cliEnv() })).stdout.split(' ')[0]!;
  expect(kernelRange).toBeDefined();
  expect(semver.satisfies(kernelVersion, kernelRange!)).toBe(true);
});

test("the README's plugin and custom build compile with strict TypeScript against the packed declarations", async () => {
  const [plugin, build] = await compileExamples();
  expect({ code: plugin!.code, output: plugin!.stdout + plugin!.stderr }).toEqual({ code: 0, output: '' });
  expect({ code: build!.code, output: build!.stdout + build!.stderr }).toEqual({ code: 0, output: '' });
  expect(existsSync(path.join(project, PLUGIN_DIR, 'index.d.ts'))).toBe(true);
  expect(existsSync(path.join(project, 'my-mewcode.js'))).toBe(true);
}, 120_000);

// The model calls the plugin's tool and a force push; the tool answers, the policy refuses the
// push, and the final answer comes back.
const TURNS: ScriptedTurn[] = [
  {
    toolCalls: [
      { id: 'toolu_shout', name: 'shout', input: { text: 'hello' } },
      { id: 'toolu_push', name: 'bash', input: { command: 'git push --force origin main' } },
    ],
  },
  { text: 'Shouted; the push was refused.' },
];

test('the custom build runs with the plugin: its tool answers and its policy refuses a force push', async () => {
  await compiledOrThrow();
  await withServer(async (server) => {
    const result = await run(process.execPath, ['my-mewcode.js', '-p', 'shout hello, then force-push', '--output-format', 'json'], { cwd: project, env: cliEnv(server) });
    expectPluginRun(result, server);
  });
}, 60_000);

test('the stock `npx mewcode` loads the published plugin named in `plugins:`', async () => {
  await compiledOrThrow();
  await writeFile(path.join(project, '.mewcode.yaml'), `plugins: [${PLUGIN_DIR}]\n`);
  try {
    await withServer(async (server) => {
      const result = await run('npx', ['--no', '--', 'mewcode', '--trust-project', '-p', 'shout hello, then force-push', '--output-format', 'json'], { cwd: project, env: cliEnv(server) });
      expectPluginRun(result, server);
    });
  } finally {
    await rm(path.join(project, '.mewcode.yaml'));
  }
}, 60_000);

function expectPluginRun(result: Run, server: ScriptedServer): void {
  const context = `exit ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`;
  expect({ code: result.code, context }).toEqual({ code: 0, context });
  expect(JSON.parse(result.stdout)).toMatchObject({ is_error: false, result: 'Shouted; the push was refused.' });
  expect(server.requests).toHaveLength(2);
  const tools = server.requests[0]!.body.tools.map((t: { name: string }) => t.name) as string[];
  expect({ tools, stderr: result.stderr }).toEqual({ tools: expect.arrayContaining(['shout', 'bash']), stderr: result.stderr });
  const results = server.requests[1]!.body.messages.at(-1).content as Array<{ tool_use_id: string; content: unknown; is_error?: boolean }>;
  const shout = results.find((r) => r.tool_use_id === 'toolu_shout');
  const push = results.find((r) => r.tool_use_id === 'toolu_push');
  expect(shout).toMatchObject({ content: 'HELLO' });
  expect(shout!.is_error).toBeFalsy();
  expect(push).toMatchObject({ is_error: true });
  expect(JSON.stringify(push!.content)).toContain(POLICY_REASON);
}

// ---------------------------------------------------------------------------------------------

/** The README's "Extending" code blocks by the path their marker names. */
function extendingExamples(): Map<string, string> {
  const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Extending\n');
  if (start < 0) throw new Error('README.md has no "## Extending" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const files = new Map<string, string>();
  for (const [, file, , code] of section.matchAll(MARKER)) files.set(file!, code!);
  const expected = [`${PLUGIN_DIR}/index.ts`, `${PLUGIN_DIR}/package.json`, 'my-mewcode.ts'];
  if ([...files.keys()].sort().join() !== expected.sort().join()) {
    throw new Error(`README "Extending" must mark exactly these examples: ${expected.join(', ')}; found ${[...files.keys()].join(', ') || 'none'}`);
  }
  return files;
}

/** The plugin first (the custom build imports its declarations), then the project. Run once. */
function compileExamples(): Promise<Run[]> {
  compilation ??= (async () => {
    const tsc = path.join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    const plugin = await run(process.execPath, [tsc, '-p', PLUGIN_DIR], { cwd: project });
    const build = await run(process.execPath, [tsc, '-p', '.'], { cwd: project });
    return [plugin, build];
  })();
  return compilation;
}

async function compiledOrThrow(): Promise<void> {
  const runs = await compileExamples();
  const failed = runs.find((r) => r.code !== 0);
  if (failed) throw new Error(`the README examples do not compile:\n${failed.stdout}${failed.stderr}`);
}

async function withServer(body: (server: ScriptedServer) => Promise<void>): Promise<void> {
  const server = await startScriptedServer({ turns: structuredClone(TURNS) });
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

/** A minimal environment: nothing of this process's credentials or configuration leaks in. */
function cliEnv(server?: ScriptedServer): Record<string, string> {
  // npx's own notices (a newer npm exists…) would land on stderr beside MewCode's.
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: home, npm_config_cache: path.join(home, '.npm'), npm_config_update_notifier: 'false' };
  if (server) Object.assign(env, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.url, MEWCODE_PROVIDER: 'anthropic', MEWCODE_MODEL: 'x' });
  return env;
}

function run(command: string, args: readonly string[], options: { cwd: string; env?: Record<string, string> }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function writeJson(file: string, value: unknown): Promise<void> {
  return writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

function readVersion(pkg: string): string {
  return (JSON.parse(readFileSync(path.join(REPO, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
}

function exportTargets(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports];
  if (!exports || typeof exports !== 'object') return [];
  return Object.values(exports).flatMap(exportTargets);
}

/** Files under `dir` (relative) whose text contains `needle`. */
/** The bundle is whitespace-minified (`var X=class`), so definitions are matched loosely. */
function filesDefining(dir: string, definition: RegExp): string[] {
  return jsFiles(dir).filter((file) => definition.test(readFileSync(path.join(dir, file), 'utf8')));
}

function jsFiles(dir: string, prefix = ''): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(prefix, entry.name);
    if (entry.isDirectory()) return jsFiles(dir, relative);
    return entry.name.endsWith('.js') ? [relative] : [];
  });
}

/**
 * Every file `entry` loads, statically or by dynamic import, following relative specifiers (only
 * those naming a file of the bundle: bundled libraries hold such strings in their own text).
 */
function importClosure(dir: string, entry: string): string[] {
  const seen = new Set<string>([entry]);
  const queue = [entry];
  const specifier = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s*)["'](\.{1,2}\/[^"']+)["']/g;
  const add = (target: string) => {
    if (!seen.has(target) && existsSync(path.join(dir, target))) {
      seen.add(target);
      queue.push(target);
    }
  };
  while (queue.length > 0) {
    const file = queue.shift()!;
    const text = readFileSync(path.join(dir, file), 'utf8');
    for (const [, spec] of text.matchAll(specifier)) add(path.normalize(path.join(path.dirname(file), spec!)));
  }
  return [...seen];
}
