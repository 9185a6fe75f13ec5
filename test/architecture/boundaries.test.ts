/**
 * The import boundaries (.dependency-cruiser.cjs) hold for the whole source tree: the kernel
 * imports only types/ and config/, plugins import neither the kernel nor each other, sdk/ uses only
 * the config/ modules the rule file names and does not re-export config/ (the names it exports are
 * checked in ./sdk-exports.test.ts), and no module cycle exists beyond the one the rule file names.
 * dependency-cruiser runs as a child process (it is an ESM command-line tool; its own process keeps
 * its module graph out of jest's).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const SOURCES = ['index.ts', 'types', 'kernel', 'sdk', 'plugins', 'config', 'bin', 'api'];

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

async function violations(): Promise<Violation[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, '--config', '.dependency-cruiser.cjs', '--output-type', 'json', ...SOURCES], {
    cwd: ROOT,
    maxBuffer: 256 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => {
    // depcruise exits non-zero when it finds violations; its JSON report is still on stdout.
    if (typeof error.stdout === 'string' && error.stdout.startsWith('{')) return { stdout: error.stdout };
    throw error;
  });
  const report = JSON.parse(stdout) as { summary: { violations: Violation[]; totalCruised: number } };
  expect(report.summary.totalCruised).toBeGreaterThan(300);
  return report.summary.violations;
}

test('every import respects the boundaries in .dependency-cruiser.cjs', async () => {
  const found = (await violations()).map((v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (cycle: ${v.cycle.map((c) => c.name).join(' → ')})` : ''}`);
  expect(found).toEqual([]);
}, 120_000);
