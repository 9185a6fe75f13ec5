// Gives the security suites a fresh folder for their tallies (see test/security/attempts.ts).
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup() {
  process.env.MEWCODE_SECURITY_RESULTS = mkdtempSync(path.join(os.tmpdir(), 'mewcode-security-'));
}
