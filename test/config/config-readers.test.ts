// Every configuration or settings file is read through config/config-file.ts (size-capped, a
// regular file only). A plain readFile of one once let a 50 MB ~/.mewcode/config.yaml freeze
// start-up for minutes while the loader itself refused it. This lists the files that still call
// readFile/readFileSync, each for what it reads, so a new reader of a config file stands out.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@jest/globals';

const ROOT = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..');

/** Files that read something other than a config or settings file, and what. */
const NOT_CONFIG: Record<string, string> = {
  'bin/plugin-command.ts': "an installed plugin's package.json",
  'config/claude-plugins/entry-definition.ts': "an installed plugin's own plugin.json",
  'config/claude-plugins/install.ts': "an installed plugin's plugin.json",
  'config/trust-code-loads.ts': 'code a project loads, hashed for trust',
  'config/trust-code.ts': "a plugin package's package.json",
  'kernel/package-entry.ts': "a package's package.json",
  'kernel/running-mewcode.ts': "MewCode's own package.json and entry",
  'kernel/syntax-error-location.ts': "a plugin's own modules, for the relative imports to check after a syntax error",
  'plugins/permission-audit/audit-log.ts': 'the audit log',
  'plugins/permission-audit/no-follow.ts': 'the audit log',
  'plugins/permission-audit/verify.ts': 'the audit log',
  'plugins/sandbox-os/byte-fs.ts': 'files the sandbox checks',
  'plugins/sandbox-os/command-records.ts': "/proc and the sandbox's own records",
  'plugins/sandbox-os/git-dir-links.ts': 'git metadata',
  'plugins/sandbox-os/git-index.ts': 'the git index',
  'plugins/sandbox-os/mount-check.ts': '/proc/self/mountinfo',
  'plugins/sandbox-os/sweep-recovery.ts': "the sandbox's own recovery records",
  'plugins/sandbox-os/unchecked-marks.ts': "the sandbox's own marks",
  'plugins/tool-edit-file/edit-file-tool.ts': 'the file being edited',
  'plugins/ui-acp/edit-snapshots.ts': 'a file being edited',
};

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
}

test('no config or settings file is read with a plain readFile (only the files listed here read anything that way)', () => {
  const readers = ['config', 'plugins', 'bin', 'kernel', 'api']
    .flatMap(sources)
    .filter((file) => /\breadFile(Sync)?\(/.test(readFileSync(path.join(ROOT, file), 'utf8')))
    .sort();
  expect(readers).toEqual(Object.keys(NOT_CONFIG).sort());
});
