/**
 * Adversarial, through the built CLI: MewCode's own host git, run by the sweep after a command,
 * must not run a program the project's configuration names. A project's `.git/config` that came
 * with a downloaded archive may define a clean filter; a command staging a file whose stat data
 * matches but whose content does not makes the sweep hash it as git does — with that filter, on
 * the host. (Found by a red team.) Escaped = the filter ran outside the sandbox.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { removeTempDirs } from '../cli/helpers.js';
import { securityTally } from './attempts.js';
import { gitWorld, opaqueBash, runModel, sandboxActive } from './sandbox-cli.js';

const tally = securityTally('sweep-host-git');
afterAll(() => {
  tally.save();
  removeTempDirs();
});

let active = true;
beforeAll(async () => {
  const probe = await sandboxActive(gitWorld('probe').home);
  active = probe.active;
  if (!active) tally.skip(1, `the sweep's own git: ${probe.reason}`);
});

test("a clean filter in the project's own .git/config, and a file staged so its stat data matches while its content differs", async () => {
  if (!active) return;
  const w = gitWorld('sweep-filter');
  writeFileSync(path.join(w.root, '.gitattributes'), '*.txt filter=x\n');
  writeFileSync(path.join(w.root, 'f.txt'), 'AAAA\n');
  w.git(w.root, '-c', 'filter.x.clean=cat', 'add', '-A');
  w.git(w.root, '-c', 'filter.x.clean=cat', 'commit', '-q', '-m', 'f');
  w.git(w.root, 'config', 'filter.x.clean', `sh -c 'touch ${w.canary}; cat'`);
  const run = await runModel(w.root, w.home, [
    opaqueBash("touch -d '2020-01-01 00:00:00' f.txt && git add f.txt && printf 'BBBB\\n' > f.new && cat f.new > f.txt && rm f.new && touch -d '2020-01-01 00:00:00' f.txt"),
  ]);
  expect(run.toolResults[0]).toContain('exit_code: 0');
  const escaped = existsSync(w.canary);
  tally.attempt("the sweep's git hashing with the project's own clean filter", escaped);
  expect({ escaped }).toEqual({ escaped: false });
  expect(run.result.stderr).toMatch(/recorded "f\.txt" as unchanged/);
}, 60_000);
