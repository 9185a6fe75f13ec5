// One temporary folder per test run, removed by global-teardown.mjs at its end: every test's
// os.tmpdir() (TMPDIR, inherited by the CLI and the processes tests start) and the sandbox suites'
// folder under /var/tmp (MEWCODE_TEST_VISIBLE_TMP: inside the sandbox /tmp is private) are in
// it, so a test that leaves a directory behind leaves it only until the run ends. The security
// suites' tallies get a folder there too (see test/security/attempts.ts).
import { existsSync, mkdtempSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup() {
  const run = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mewcode-tests-')));
  process.env.MEWCODE_TEST_RUN_TMP = run;
  process.env.TMPDIR = run;
  if (existsSync('/var/tmp')) process.env.MEWCODE_TEST_VISIBLE_TMP = realpathSync(mkdtempSync('/var/tmp/mewcode-tests-'));
  process.env.MEWCODE_SECURITY_RESULTS = mkdtempSync(path.join(run, 'mewcode-security-'));
}
