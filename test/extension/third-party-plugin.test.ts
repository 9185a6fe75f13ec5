/**
 * The third-party story, end to end, and the plugin guide's code: the example package of
 * docs/plugins.md (every code block written to the file it names) compiled with strict TypeScript
 * against MewCode's declarations, packed, installed with the CLI's `mewcode plugin add <tarball>`
 * under a temporary HOME, and used in a session against the scripted model server in which the
 * model calls the plugin's tool and meets its policy and its hook; ~/.mewcode holds one MewCode
 * (`npm ls`).
 *
 * Two ways, one test: by default MewCode is this checkout's build (the plugin's node_modules/mewcode
 * links to it), which keeps the default suite fast. `npm run test:third-party` (MEWCODE_PACKED=1)
 * packs MewCode as `npm publish` would and installs the tarball beside the plugin (≈ 190 packages
 * from the npm cache), so the plugin sees the packed declarations only and the packed CLI adds it.
 *
 * Needs the built dist/ (`npm test` builds first). npm runs with --prefer-offline: from the cache,
 * asking the registry only for what the cache lacks (after `npm ci` alone, package metadata).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import semver from 'semver';
import { parse as parseYaml } from 'yaml';
import { KERNEL_VERSION } from '../../kernel/version.js';
import { startScriptedServer, type ScriptedServer } from '../scripted-server/index.js';

const REPO = path.resolve('.');
const GUIDE = path.join(REPO, 'docs', 'plugins.md');
const TSC = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
const PLUGIN_NAME = 'mewcode-plugin-acme';
/** Languages whose blocks are code the suite must compile or use; the rest (sh, text, yaml) are shown. */
const COMPILED_LANGUAGES = new Set(['ts', 'typescript', 'js', 'json']);
/** A fenced block, with the `<!-- file: … -->` comment that may stand right above it. */
const BLOCK = /(?:<!--\s*file:\s*(\S+)\s*-->\s*\n)?```(\w*)\n([\s\S]*?)```/g;
const FILE_LINE = /^\/\/ file: (\S+)\n/;
/** `npm run test:third-party`: against a packed MewCode instead of this checkout. */
const PACKED = process.env.MEWCODE_PACKED === '1';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}
interface Guide {
  /** Package-relative path → text, for every marked block. */
  files: Map<string, string>;
  /** Compiled-language blocks that name no file (each must name one). */
  unmarked: string[];
  yaml: string[];
}

let work: string;
let home: string;
let project: string;
let pluginDir: string;
let guide: Guide;
let pluginTarball: string;
let compiled: Run;
let compiledWithDecorators: Run;

beforeAll(async () => {
  for (const file of ['dist/mewcode.js', 'dist/sdk.js', 'dist/types/sdk/index.d.ts']) {
    if (!existsSync(path.join(REPO, file))) throw new Error(`${file} is missing: run \`npm run build\` first (npm test does).`);
  }
  guide = readGuide();
  work = realpathSync(await mkdtemp(path.join(os.tmpdir(), 'mewcode-third-party-')));
  home = path.join(work, 'home');
  project = path.join(work, 'project');
  pluginDir = path.join(work, PLUGIN_NAME);
  await mkdir(home);
  await mkdir(project);

  for (const [file, text] of guide.files) {
    await mkdir(path.dirname(path.join(pluginDir, file)), { recursive: true });
    await writeFile(path.join(pluginDir, file), text);
  }
  if (PACKED) await installPackedMewcode();
  else await linkCheckout();

  compiled = await run(process.execPath, [TSC, '-p', '.'], { cwd: pluginDir });
  // The guide's class-based example: its tsconfig plus the one option it says decorators need.
  await writeFile(path.join(pluginDir, 'tsconfig.decorators.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { experimentalDecorators: true, rootDir: '.', noEmit: true }, include: ['examples'] }));
  compiledWithDecorators = await run(process.execPath, [TSC, '-p', 'tsconfig.decorators.json'], { cwd: pluginDir });
  if (compiled.code !== 0) return; // reported by the compile test; the rest fail on the missing tarball
  const packPlugin = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: pluginDir, env: npmEnv() });
  if (packPlugin.code !== 0) throw new Error(`npm pack of the plugin failed:\n${packPlugin.stderr}`);
  pluginTarball = path.join(work, (JSON.parse(packPlugin.stdout) as Array<{ filename: string }>)[0]!.filename);
}, 180_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
});

describe('docs/plugins.md', () => {
  test('every code block names the file it is, and the package has the files the guide describes', () => {
    expect(guide.unmarked).toEqual([]);
    expect([...guide.files.keys()].sort()).toEqual(['examples/word-count-class.ts', 'package.json', 'src/conventions.ts', 'src/policy.ts', 'src/tools.ts', 'src/word-count.ts', 'tsconfig.json']);
  });

  test(`compiles with tsc --strict against ${PACKED ? "the packed MewCode's" : "this build's"} declarations, which need @types/node; decorators only with experimentalDecorators`, () => {
    expect({ code: compiled.code, output: compiled.stdout + compiled.stderr }).toEqual({ code: 0, output: '' });
    expect({ code: compiledWithDecorators.code, output: compiledWithDecorators.stdout + compiledWithDecorators.stderr }).toEqual({ code: 0, output: '' });
    const options = (JSON.parse(guide.files.get('tsconfig.json')!) as { compilerOptions: Record<string, unknown> }).compilerOptions;
    expect(options).toMatchObject({ strict: true, types: ['node'] });
    expect(options.experimentalDecorators).toBeUndefined();
    expect(options.emitDecoratorMetadata).toBeUndefined();
    // Packed: the types came from the tarball, nothing links back to this checkout.
    expect(mewcodeRoot()).toBe(PACKED ? path.join(pluginDir, 'node_modules', 'mewcode') : realpathSync(REPO));
    for (const part of ['tools', 'policy', 'conventions', 'word-count']) {
      expect(existsSync(path.join(pluginDir, 'dist', `${part}.js`))).toBe(true);
      expect(existsSync(path.join(pluginDir, 'dist', `${part}.d.ts`))).toBe(true);
    }
  });

  test("the guide's version ranges accept this MewCode, its kernel and the build tools", () => {
    const manifest = guideManifest();
    const version = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
    expect(semver.satisfies(version, manifest.peerDependencies.mewcode!)).toBe(true);
    expect(semver.satisfies(version, manifest.devDependencies.mewcode!)).toBe(true);
    for (const tool of ['typescript', '@types/node']) expect({ tool, ok: semver.satisfies(repoVersion(tool), manifest.devDependencies[tool]!) }).toEqual({ tool, ok: true });
    const ranges = [...guide.files.values()].flatMap((text) => [...text.matchAll(/kernel: '([^']+)'/g)].map((m) => m[1]!));
    expect(ranges.length).toBeGreaterThanOrEqual(3);
    for (const range of ranges) expect(semver.satisfies(KERNEL_VERSION, range)).toBe(true);
  });
});

test('the packed plugin, added with `mewcode plugin add <tarball>`, works in a session; ~/.mewcode holds one MewCode', async () => {
  expect(pluginTarball).toBeDefined();
  const cli = path.join(mewcodeRoot(), 'bin', 'mewcode.js');
  const added = await run(process.execPath, [cli, 'plugin', 'add', pluginTarball], { cwd: project, env: { ...npmEnv(), HOME: home } });
  const userDir = path.join(home, '.mewcode');
  expect({ code: added.code, stderr: added.stderr }).toEqual({ code: 0, stderr: '' });
  expect(added.stdout).toContain(`Added ${PLUGIN_NAME} 1.0.0 to plugins: in ${path.join(userDir, 'config.yaml')}`);

  // One MewCode: the running one (the packed copy the CLI came from), linked, not installed again.
  const ls = await run('npm', ['ls', '--all', '--parseable'], { cwd: userDir, env: { ...npmEnv(), HOME: home } });
  const mewcodes = ls.stdout.split('\n').filter((line) => path.basename(line) === 'mewcode');
  expect(mewcodes).toHaveLength(1);
  expect(realpathSync(mewcodes[0]!)).toBe(mewcodeRoot());

  // The guide's configuration: the package required.
  const [required] = guide.yaml.filter((text) => /required: true/.test(text));
  expect(parseYaml(required!)).toMatchObject({ plugins: [{ use: PLUGIN_NAME, required: true }] });
  await writeFile(path.join(userDir, 'config.yaml'), required!);

  const server = await startScriptedServer({
    turns: [
      {
        toolCalls: [
          { id: 'toolu_count', name: 'word_count', input: { text: 'The cat saw the dog', top: 2 } },
          { id: 'toolu_bad', name: 'word_count', input: { text: 42 } },
          { id: 'toolu_push', name: 'bash', input: { command: 'git push --force origin main' } },
        ],
      },
      { text: 'Five words; the push was refused.' },
    ],
  });
  try {
    const session = await run(process.execPath, [cli, '-p', 'count the words, then force-push', '--output-format', 'json', '--permission-mode', 'default'], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '', HOME: home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url, MEWCODE_PROVIDER: 'anthropic', MEWCODE_MODEL: 'x' },
    });
    const context = `exit ${session.code}\nstdout: ${session.stdout}\nstderr: ${session.stderr}`;
    expect({ code: session.code, context }).toEqual({ code: 0, context });
    expect(JSON.parse(session.stdout)).toMatchObject({ is_error: false, result: 'Five words; the push was refused.' });
    expect(server.requests).toHaveLength(2);

    const first = server.requests[0]!.body;
    const wordCount = first.tools.find((tool: { name: string }) => tool.name === 'word_count');
    expect(wordCount).toMatchObject({ input_schema: { type: 'object', properties: { text: { type: 'string' }, top: { type: 'integer' } }, required: ['text'] } });
    expect(JSON.stringify(first.messages)).toContain('Acme conventions: British spelling');

    const results = server.requests[1]!.body.messages.at(-1).content as Array<{ tool_use_id: string; content: unknown; is_error?: boolean }>;
    const byId = (id: string) => results.find((r) => r.tool_use_id === id)!;
    expect(byId('toolu_count')).toMatchObject({ content: '5 words; most frequent: the (2), cat (1)' });
    expect(byId('toolu_count').is_error).toBeFalsy();
    expect(byId('toolu_bad')).toMatchObject({ is_error: true });
    expect(JSON.stringify(byId('toolu_bad').content)).toMatch(/word_count[^"]*text/);
    expect(byId('toolu_push')).toMatchObject({ is_error: true });
    expect(JSON.stringify(byId('toolu_push').content)).toContain('force pushes are not allowed at Acme');
  } finally {
    await server.close();
  }
}, 120_000);

// ---------------------------------------------------------------------------------------------

/**
 * The guide's manifest as printed, but its build tools are this repository's: the packed MewCode
 * (not the registry's) and the @types/node it is built with; tsc is run from here.
 */
async function installPackedMewcode(): Promise<void> {
  // `--ignore-scripts`: pack the dist/ already built instead of rebuilding it (`prepare`).
  const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: REPO });
  if (pack.code !== 0) throw new Error(`npm pack of MewCode failed:\n${pack.stderr}`);
  const tarball = path.join(work, (JSON.parse(pack.stdout) as Array<{ filename: string }>)[0]!.filename);
  await writeFile(
    path.join(pluginDir, 'package.json'),
    JSON.stringify({ ...guideManifest(), devDependencies: { mewcode: `file:${tarball}`, '@types/node': repoVersion('@types/node') } }, null, 2),
  );
  const install = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-package-lock'], { cwd: pluginDir, env: npmEnv() });
  if (install.code !== 0) throw new Error(`npm install in the plugin's folder failed:\n${install.stderr}`);
}

/** What installing the dev dependencies would give, from this checkout: mewcode, zod, @types/node. */
async function linkCheckout(): Promise<void> {
  const links: Array<[string, string]> = [['mewcode', REPO], ['zod', path.join(REPO, 'node_modules', 'zod')], ['@types/node', path.join(REPO, 'node_modules', '@types', 'node')]];
  for (const [name, target] of links) {
    const link = path.join(pluginDir, 'node_modules', name);
    await mkdir(path.dirname(link), { recursive: true });
    await symlink(target, link, 'dir');
  }
}

/** The MewCode the plugin was built against, whose CLI adds and runs it. */
function mewcodeRoot(): string {
  return realpathSync(path.join(pluginDir, 'node_modules', 'mewcode'));
}

function readGuide(): Guide {
  const text = readFileSync(GUIDE, 'utf8');
  const files = new Map<string, string>();
  const unmarked: string[] = [];
  const yaml: string[] = [];
  for (const [, commentFile, language, body] of text.matchAll(BLOCK)) {
    if (language === 'yaml') yaml.push(body!);
    if (!COMPILED_LANGUAGES.has(language!)) continue;
    const lineFile = FILE_LINE.exec(body!)?.[1];
    const file = commentFile ?? lineFile;
    if (file === undefined) unmarked.push(body!.split('\n')[0]!);
    else if (files.has(file)) throw new Error(`docs/plugins.md names ${file} twice`);
    else files.set(file, body!);
  }
  return { files, unmarked, yaml };
}

function guideManifest(): { peerDependencies: Record<string, string>; devDependencies: Record<string, string> } & Record<string, unknown> {
  const text = guide.files.get('package.json');
  if (text === undefined) throw new Error('docs/plugins.md has no block marked as package.json');
  return JSON.parse(text) as ReturnType<typeof guideManifest>;
}

function repoVersion(name: string): string {
  return (JSON.parse(readFileSync(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

/** npm from the cache this machine already has, quietly; nothing of this process's configuration. */
function npmEnv(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.homedir(),
    npm_config_cache: process.env.npm_config_cache ?? path.join(os.homedir(), '.npm'),
    npm_config_prefer_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  };
}

function run(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? npmEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => resolve({ code: 127, stdout, stderr: `${stderr}${error.message}` }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
