// Prints the adversarial suite's total (`security: N attempts, 0 escapes`), then removes the
// run's temporary folders (global-setup.mjs).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

export default function teardown() {
  try {
    reportSecurityTally();
  } finally {
    for (const dir of [process.env.MEWCODE_TEST_RUN_TMP, process.env.MEWCODE_TEST_VISIBLE_TMP]) if (dir) removeAll(dir);
  }
}

/** Removes a folder whatever a test left in it (a directory without write or search permission too). */
function removeAll(dir) {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    spawnSync('chmod', ['-R', 'u+rwX', dir], { stdio: 'ignore' });
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch (error) {
      process.stderr.write(`test run: could not remove ${dir}: ${error.message}\n`);
    }
  }
}

function reportSecurityTally() {
  const dir = process.env.MEWCODE_SECURITY_RESULTS;
  if (!dir) return;
  let attempts = 0;
  const escapes = [];
  const skipped = [];
  const suites = [];
  for (const file of readdirSync(dir)) {
    const tally = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
    attempts += tally.attempts;
    escapes.push(...tally.escapes.map((e) => `${tally.suite}: ${e}`));
    for (const s of tally.skipped) skipped.push(`${tally.suite}: ${s.count} skipped (${s.reason})`);
    suites.push(`  ${tally.suite}: ${tally.attempts} attempts, ${tally.escapes.length} escapes`);
  }
  rmSync(dir, { recursive: true, force: true });
  if (suites.length === 0) return;
  process.stdout.write(`\nsecurity (adversarial suite):\n${suites.sort().join('\n')}\n${skipped.map((s) => `  ${s}\n`).join('')}security: ${attempts} attempts, ${escapes.length} escapes${escapes.length ? `\n  ${escapes.join('\n  ')}` : ''}\n`);
}
