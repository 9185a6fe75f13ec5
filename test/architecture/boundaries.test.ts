/**
 * The import boundaries (.dependency-cruiser.cjs) hold for the whole source tree: the kernel
 * imports only types/ and config/, plugins import neither the kernel nor each other, sdk/ uses only
 * the config/ modules the rule file names and does not re-export config/ (the names it exports are
 * checked in ./sdk-exports.test.ts), and no module cycle exists beyond the one the rule file names.
 * dependency-cruiser runs as a child process (it is an ESM command-line tool; its own process keeps
 * its module graph out of jest's).
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const FOLDERS = ['types', 'kernel', 'sdk', 'plugins', 'config', 'bin', 'api'];
/** Every module at the root (index.ts, entry.ts, …): each is an entry or re-exports one. */
const TOP_LEVEL_MODULES = readdirSync(ROOT).filter((name) => /\.(ts|tsx)$/.test(name));
const SOURCES = [...TOP_LEVEL_MODULES, ...FOLDERS];

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

async function violations(root = ROOT, sources = SOURCES, minimum = 300): Promise<Violation[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, '--config', '.dependency-cruiser.cjs', '--output-type', 'json', ...sources], {
    cwd: root,
    maxBuffer: 256 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => {
    // depcruise exits non-zero when it finds violations; its JSON report is still on stdout.
    if (typeof error.stdout === 'string' && error.stdout.startsWith('{')) return { stdout: error.stdout };
    throw error;
  });
  const report = JSON.parse(stdout) as { summary: { violations: Violation[]; totalCruised: number } };
  expect(report.summary.totalCruised).toBeGreaterThan(minimum);
  return report.summary.violations;
}

test('every import respects the boundaries in .dependency-cruiser.cjs', async () => {
  const found = (await violations()).map((v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (cycle: ${v.cycle.map((c) => c.name).join(' → ')})` : ''}`);
  expect(found).toEqual([]);
}, 120_000);

test('the root modules are all checked, by this test and by npm run check-boundaries', () => {
  expect(TOP_LEVEL_MODULES).toEqual(expect.arrayContaining(['index.ts', 'entry.ts']));
  const script = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['check-boundaries']!;
  expect(script).toContain(' *.ts ');
  for (const folder of FOLDERS) expect(script.split(' ')).toContain(folder);
});

/**
 * The rules catch what they are for, proved on a scratch copy of the layout with each violation
 * planted: the package's own name (which resolves into dist/ once built, or to nothing before),
 * a root module other than index.ts (entry.ts re-exports the kernel), and the kernel reaching a
 * plugin or the sdk.
 */
describe('planted violations are reported', () => {
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'mewcode-boundaries-'));
    const write = (file: string, text: string): void => {
      mkdirSync(path.dirname(path.join(scratch, file)), { recursive: true });
      writeFileSync(path.join(scratch, file), text);
    };
    for (const file of ['.dependency-cruiser.cjs', 'tsconfig.json', 'package.json']) copyFileSync(path.join(ROOT, file), path.join(scratch, file));
    write('dist/index.js', 'export const Kernel = 1;\n');
    write('dist/sdk.js', 'export const tool = 1;\n');
    write('kernel/index.ts', 'export const Kernel = 1;\n');
    write('types/index.ts', 'export type Plugin = { name: string };\n');
    write('sdk/index.ts', 'export const tool = 1;\n');
    write('index.ts', "export { Kernel } from './kernel/index.js';\n");
    write('entry.ts', "export * from './index.js';\n");
    write('launch.ts', "export * from './entry.js';\n");
    write('plugins/self/index.ts', "import { Kernel } from 'mewcode';\nimport { tool } from 'mewcode/sdk';\nexport const x = [Kernel, tool];\n");
    write('plugins/entry/index.ts', "import { Kernel } from '../../entry.js';\nexport const x = Kernel;\n");
    write('plugins/launch/index.ts', "import * as m from '../../launch.js';\nexport const x = m;\n");
    write('sdk/bad.ts', "import * as m from '../entry.js';\nexport const x = m;\n");
    write('kernel/bad.ts', "import * as m from '../entry.js';\nimport * as s from '../sdk/index.js';\nexport const x = [m, s];\n");
  });
  let planted: Promise<Violation[]> | undefined;
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  test.each([
    ['no-self-reference', 'plugins/self/index.ts', /^(dist\/index\.js|mewcode)$/],
    ['no-self-reference', 'plugins/self/index.ts', /^(dist\/sdk\.js|mewcode\/sdk)$/],
    ['plugin-imports-no-kernel', 'plugins/entry/index.ts', /^entry\.ts$/],
    ['plugin-imports-no-kernel', 'plugins/launch/index.ts', /^launch\.ts$/],
    ['sdk-stays-a-library', 'sdk/bad.ts', /^entry\.ts$/],
    ['kernel-imports-only-types-and-config', 'kernel/bad.ts', /^entry\.ts$/],
    ['kernel-imports-only-types-and-config', 'kernel/bad.ts', /^sdk\/index\.ts$/],
  ])('%s: %s → %s', async (rule, from, to) => {
    const found = await (planted ??= violations(scratch, ['index.ts', 'entry.ts', 'launch.ts', 'kernel', 'types', 'sdk', 'plugins'], 5));
    expect(found.some((v) => v.rule.name === rule && v.from === from && to.test(v.to))).toBe(true);
  }, 60_000);

  test('before a build too: the package name resolving to nothing is still a self-reference', async () => {
    rmSync(path.join(scratch, 'dist'), { recursive: true, force: true });
    const found = await violations(scratch, ['plugins'], 2);
    expect(found.filter((v) => v.rule.name === 'no-self-reference').map((v) => v.to).sort()).toEqual(['mewcode', 'mewcode/sdk']);
  }, 60_000);
});
