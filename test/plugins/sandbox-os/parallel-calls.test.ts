/**
 * Sandboxed calls side by side share the temporary mount points made for missing protected
 * paths (`.mcp.json`, `.claude`, `.mewcode.yaml` …). One call's plan may look at a mount point
 * while another call releases and removes it: the plan must not then bind the vanished directory
 * over itself (bubblewrap: "Can't find source path"), and no call may fail for it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { securityTally } from '../../security/attempts.js';
import { sandboxFixture, skipWithoutSandbox } from './fixture.js';

const tally = securityTally('sandbox-mount-points-in-process');
afterAll(() => tally.save());

const ROUNDS = 24;
const PARALLEL = 8;
const MOUNT_POINT_NAMES = ['.mcp.json', '.claude', '.mewcode.yaml', '.mewcode.yml', '.mewcode.json'];

test(`${ROUNDS} rounds of ${PARALLEL} parallel sandboxed calls, each starting as others end: none fails, no mount point is left`, async () => {
  const fixture = await sandboxFixture({ projectFiles: { 'README.md': 'hello\n' } });
  if (skipWithoutSandbox(tally, 'parallel sandboxed calls', fixture.status)) return;
  const failures: string[] = [];
  // Staggered: calls start while earlier ones are releasing their mount points.
  const running = new Set<Promise<void>>();
  for (let i = 0; i < ROUNDS * PARALLEL; i++) {
    const call: Promise<void> = fixture.run('cat README.md').then((out) => {
      if (out.content !== 'exit_code: 0\nhello') failures.push(String(out.content));
    });
    running.add(call);
    void call.finally(() => running.delete(call));
    if (running.size >= PARALLEL) await Promise.race(running);
  }
  await Promise.all(running);
  tally.attempt('a parallel sandboxed call fails on a mount point another call removed', failures.length > 0);
  expect(failures).toEqual([]);
  expect(MOUNT_POINT_NAMES.filter((name) => existsSync(path.join(fixture.root, name)))).toEqual([]);
}, 120_000);
