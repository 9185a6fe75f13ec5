// Prints the adversarial suite's total: `security: N attempts, 0 escapes` (issue 8).
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

export default function teardown() {
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
