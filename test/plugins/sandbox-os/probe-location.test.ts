/**
 * Which sandbox program is used. The program decides what "sandboxed" means for every command, so
 * a `bwrap` earlier on PATH (a four-line script that runs its command on the host passes the probe)
 * must not replace the system's: under a managed force PATH is never read and only a system
 * location owned by root and writable by no one else counts; otherwise the system's copy comes
 * first and PATH is the fallback. Real files throughout.
 */
import { chmodSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { locateMechanism, SYSTEM_LOCATIONS } from '../../../plugins/sandbox-os/probe.js';

const FORCED = '/etc/mewcode/managed-settings.yaml:3:12';
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A directory in the temp root holding an executable `bwrap` (exec's its command on the host). */
function fakeBin(): { dir: string; bwrap: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mc-fake-bwrap-'));
  dirs.push(dir);
  const bwrap = path.join(dir, 'bwrap');
  writeFileSync(bwrap, '#!/bin/sh\nwhile [ "$1" != -- ]; do shift; done; shift\nexec "$@"\n');
  chmodSync(bwrap, 0o755);
  return { dir, bwrap };
}

/** /usr/bin/bwrap, when this machine has one only root can change (it, /usr/bin, /usr and / root's, none group- or other-writable). */
const systemBwrap = (() => {
  const file = '/usr/bin/bwrap';
  try {
    const real = realpathSync(file);
    for (let at = real; ; at = path.dirname(at)) {
      const info = statSync(at);
      if (info.uid !== 0 || (info.mode & 0o022) !== 0) return undefined;
      if (path.dirname(at) === at) return file;
    }
  } catch {
    return undefined;
  }
})();

describe('under a managed force', () => {
  it('a bwrap on PATH is never used, even when it is the only one', () => {
    const fake = fakeBin();
    const located = locateMechanism('linux', fake.dir, undefined, { forcedBy: FORCED, systemLocations: [path.join(fake.dir, 'none')] });
    expect(located).toEqual({ ok: false, reason: expect.stringContaining(`managed settings (${FORCED}) force the sandbox, and then only ${path.join(fake.dir, 'none')} owned by root and writable by no one else is used, never one found on PATH`) });
  });

  it('a system location in a directory others can write to (the temp root) is refused, saying why', () => {
    const fake = fakeBin();
    const located = locateMechanism('linux', undefined, undefined, { forcedBy: FORCED, systemLocations: [fake.bwrap] });
    expect(located.ok).toBe(false);
    expect(!located.ok && located.reason).toMatch(/is not a system program: its directory .* is writable by (anyone|its group)|is not a system program: its directory .* is owned by uid/);
  });

  it('the default locations are the system ones, whatever PATH holds first', () => {
    expect(SYSTEM_LOCATIONS.linux).toEqual(['/usr/bin/bwrap', '/usr/local/bin/bwrap']);
    expect(SYSTEM_LOCATIONS.darwin).toEqual(['/usr/bin/sandbox-exec']);
    const fake = fakeBin();
    const located = locateMechanism('linux', `${fake.dir}:/usr/bin`, undefined, { forcedBy: FORCED });
    if (systemBwrap) expect(located).toEqual({ ok: true, found: { mechanism: 'bubblewrap', binary: systemBwrap } });
    else expect(located.ok).toBe(false);
    const mac = locateMechanism('darwin', fake.dir, undefined, { forcedBy: FORCED });
    expect(mac.ok && mac.found.binary).not.toBe(path.join(fake.dir, 'sandbox-exec'));
  });
});

describe('without a managed force', () => {
  const savedPath = process.env.PATH;
  afterEach(() => {
    process.env.PATH = savedPath;
  });

  it('the system copy comes before a bwrap earlier on PATH', () => {
    if (!systemBwrap) return; // no system bubblewrap on this machine: nothing to prefer
    const fake = fakeBin();
    process.env.PATH = `${fake.dir}:${savedPath}`;
    expect(locateMechanism('linux')).toEqual({ ok: true, found: { mechanism: 'bubblewrap', binary: systemBwrap } });
  });

  it('where the system has none (Nix, Homebrew), PATH\'s is used: the user\'s own PATH', () => {
    const fake = fakeBin();
    process.env.PATH = fake.dir;
    expect(locateMechanism('linux', undefined, undefined, { systemLocations: [path.join(fake.dir, 'none')] })).toEqual({ ok: true, found: { mechanism: 'bubblewrap', binary: fake.bwrap } });
  });
});
