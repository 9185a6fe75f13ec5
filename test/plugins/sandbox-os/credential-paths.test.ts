/**
 * The credential list's helpers (environment, XDG, the AI tools' directories), the shell startup
 * files and the stores an audit found missing, the README naming every entry, `deny_read` globs,
 * `allow_unix_sockets` settings, and how bubblewrap's and Seatbelt's arguments carry the
 * unix-socket and seccomp parts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bwrapArgs, sandboxLaunch } from '../../../plugins/sandbox-os/bwrap-args.js';
import { CREDENTIAL_ENV, CREDENTIAL_PATHS, HIDDEN_EXCEPT, credentialDirs, credentialPaths, credentialPathsFromEnv, hiddenToolEntries, movedXdgHomes } from '../../../plugins/sandbox-os/credential-paths.js';
import { globReadRules, isGlob } from '../../../plugins/sandbox-os/deny-read-globs.js';
import { ruleHiddenPaths } from '../../../plugins/sandbox-os/read-rules.js';
import { seatbeltProfile } from '../../../plugins/sandbox-os/seatbelt.js';
import { readSandboxSettings } from '../../../plugins/sandbox-os/settings.js';

const HOME = '/home/u';
const tmp = async (prefix: string): Promise<string> => realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));

describe('the credential list', () => {
  test('each entry becomes an absolute path under the given home, directories without their slash', () => {
    const paths = credentialPaths(HOME);
    expect(paths).toHaveLength(CREDENTIAL_PATHS.length);
    expect(paths).toContain('/home/u/.aws');
    expect(paths).toContain('/home/u/.terraform.d/credentials.tfrc.json');
    expect(paths).toContain('/home/u/Library/Application Support/com.vercel.cli');
    for (const entry of paths) expect(entry.startsWith(`${HOME}/`) && !entry.endsWith('/')).toBe(true);
  });

  test('the issue examples are all on it (or hidden with their directory)', () => {
    for (const entry of ['.boto', '.s3cfg', '.oci/', '.vault-token', '.terraform.d/credentials.tfrc.json', '.terraformrc', '.config/doctl/', '.config/git/credentials', '.git-credentials', '.mewcode/mcp-oauth.json', '.mewcode/settings.yaml']) {
      expect(CREDENTIAL_PATHS).toContain(entry);
    }
    expect(HIDDEN_EXCEPT['.claude']).not.toContain('.credentials.json');
    expect(HIDDEN_EXCEPT['.codex']).not.toContain('auth.json');
  });

  test('shell startup files, and the stores a hostile-repository audit found readable, are on it (or hidden with their directory)', () => {
    const covered = (file: string): boolean => CREDENTIAL_PATHS.some((entry) => entry === file || (entry.endsWith('/') && file.startsWith(entry)));
    const startup = ['.bashrc', '.zshrc', '.profile', '.bash_profile', '.zshenv', '.zprofile', '.zlogin', '.bash_aliases', '.bash_login', '.config/fish/config.fish', '.config/fish/conf.d/keys.fish', '.config/fish/fish_variables', '.envrc', '.exports', '.extra', '.aliases', '.functions', '.config/zsh/.zshrc', '.oh-my-zsh/custom/secrets.zsh', '.config/environment.d/secrets.conf', '.pam_environment', '.xprofile', '.xsessionrc'];
    const stores = [
      '.config/nushell/history.txt', '.local/share/xonsh/history_json/x.json', '.local/state/elvish/db.bolt', '.config/zsh/.zsh_history', '.local/state/zsh/history', '.local/share/mcfly/history.db',
      '.config/pgcli/history', '.mycli-history', '.litecli-history', '.pry_history', '.gdb_history', '.duckdb_history', '.clickhouse-client-history', '.dbshell', '.Rhistory', '.julia/logs/repl_history.jl',
      '.ghc/ghci_history', '.usql_history', '.cassandra/cqlsh_history', '.scala_history', '.config/goreleaser/github_token', '.jfrog/jfrog-cli.conf.v6', '.config/lab/lab.toml', '.config/hut/config',
      '.hex/hex.config', '.cabal/config', '.android/adbkey', '.appstoreconnect/private_keys/AuthKey_X.p8', '.rancher/cli2.json', '.awsvault/keys/default', '.saml2aws', '.okta/okta.yaml', '.expo/state.json',
      '.config/turso/settings.json', '.config/neonctl/credentials.json', '.config/planetscale/access-token', '.render/cli.yaml', '.vultr-cli.yaml', '.civo.json', '.config/exoscale/exoscale.toml',
      '.config/attic/config.toml', '.config/kaggle/kaggle.json', '.modal.toml', '.runpod/config.toml', '.config/vastai/vast_api_key', '.kiro/settings/mcp.json', '.config/Cursor/User/globalStorage/state.vscdb',
      '.config/Windsurf/User/globalStorage/state.vscdb', '.config/VSCodium/User/globalStorage/state.vscdb', '.config/Code - Insiders/User/globalStorage/state.vscdb', '.config/syncthing/key.pem',
      '.local/state/syncthing/key.pem', '.google_authenticator', '.config/gspread/service_account.json', '.Renviron', '.minisign/minisign.key', '.config/vdirsyncer/config',
    ];
    expect(stores).toHaveLength(57);
    expect([...startup, ...stores].filter((file) => !covered(file))).toEqual([]);
    // What builds read in those directories stays off the list.
    for (const kept of ['.android/debug.keystore', '.hex/packages/hexpm/x.tar', '.cabal/packages/hackage.haskell.org/01-index.tar', '.julia/packages/JSON/x.jl', '.jfrog/dependencies/x.jar']) expect({ kept, covered: covered(kept) }).toEqual({ kept, covered: false });
  });

  test('editors\' MCP and AI settings, and the stores a second audit found readable, are on it', () => {
    const covered = (file: string): boolean => CREDENTIAL_PATHS.some((entry) => entry === file || (entry.endsWith('/') && file.startsWith(entry)));
    const stores = [
      '.config/Code/User/mcp.json', '.config/Code - Insiders/User/mcp.json', '.config/VSCodium/User/mcp.json', 'Library/Application Support/Code/User/mcp.json',
      '.config/Code/User/settings.json', '.config/zed/settings.json', '.config/opencode/opencode.json', '.bunfig.toml', '.config/.bunfig.toml', '.config/nix/nix.conf',
      '.cf/config.json', '.argocd/config', '.config/httpie/sessions/api.example.com/default.json', '.rclone.conf', '.smbcredentials', '.lftp/bookmarks',
      'Library/Application Support/ngrok/ngrok.yml',
    ];
    expect(stores.filter((file) => !covered(file))).toEqual([]);
  });

  test('the plugin README names every entry', () => {
    const readme = readFileSync(new URL('../../../plugins/sandbox-os/README.md', import.meta.url), 'utf8');
    const missing = CREDENTIAL_PATHS.filter((entry) => !readme.includes(`\`~/${entry}\``));
    expect(missing).toEqual([]);
    for (const name of CREDENTIAL_ENV) expect(readme).toContain(`\`${name}\``);
  });

  test('variables that move credentials: absolute paths only, KUBECONFIG split; XDG homes move the .config and .local/share entries', () => {
    const env = {
      KUBECONFIG: '/a/kube:relative/kube:/b/kube',
      GOOGLE_APPLICATION_CREDENTIALS: '/secrets/sa.json',
      DOCKER_CONFIG: 'not-absolute',
      XDG_CONFIG_HOME: '/xdg/config',
      XDG_DATA_HOME: '/home/u/.local/share', // the default: nothing moves
    };
    const paths = credentialPathsFromEnv(HOME, env);
    expect(paths).toEqual(expect.arrayContaining(['/a/kube', '/b/kube', '/secrets/sa.json', '/xdg/config/gh', '/xdg/config/doctl', '/xdg/config/git/credentials']));
    expect(paths.some((p) => p.includes('relative') || p.includes('not-absolute'))).toBe(false);
    expect(paths.some((p) => p.startsWith('/home/u/.local/share'))).toBe(false);
    expect(credentialPathsFromEnv(HOME, {})).toEqual([]);
  });

  test('history and startup variables: devices and /proc are not hidden (HISTFILE=/dev/null turns a history off); XDG_STATE_HOME moves the .local/state entries', () => {
    const paths = credentialPathsFromEnv(HOME, { HISTFILE: '/dev/null', ZDOTDIR: '/home/u/dotfiles/zsh', NODE_REPL_HISTORY: '/proc/self/fd/1', PYTHON_HISTORY: '/data/py_history', XDG_STATE_HOME: '/xdg/state' });
    expect(paths).toEqual(expect.arrayContaining(['/home/u/dotfiles/zsh', '/data/py_history', '/xdg/state/zsh', '/xdg/state/syncthing', '/xdg/state/lesshst']));
    expect(paths.filter((p) => p.startsWith('/dev') || p.startsWith('/proc'))).toEqual([]);
    expect(movedXdgHomes(HOME, { XDG_STATE_HOME: '/home/u/.local/state', XDG_CONFIG_HOME: 'relative' })).toEqual([]);
  });

  test('the directories the name scan does not enter: the list\'s own and the AI tools\'', () => {
    const dirs = credentialDirs(HOME);
    expect(dirs).toEqual(expect.arrayContaining(['/home/u/.aws', '/home/u/.config/fish', '/home/u/.mewcode', '/home/u/.claude']));
    expect(dirs).not.toContain('/home/u/.bashrc');
  });

  test("the AI tools' and MewCode's directories: every entry but the kept names, listed at call time", async () => {
    const home = await tmp('mc-cred-home-');
    for (const file of ['.mewcode/mcp-oauth.json', '.mewcode/new-in-a-later-version', '.mewcode/skills/x/SKILL.md', '.mewcode/AGENTS.md', '.claude/.credentials.json', '.claude/projects/p.jsonl', '.claude/skills/s/SKILL.md', '.codex/auth.json', '.codex/prompts/p.md', '.claude/hooks/guard.sh', '.claude/plugins/cache/m/p/hooks/x.sh', '.mewcode/hooks/guard.sh', '.mewcode/plugins/cache/m/p/hooks/x.sh']) {
      await mkdir(path.dirname(path.join(home, file)), { recursive: true });
      await writeFile(path.join(home, file), 'x');
    }
    const hidden = (await hiddenToolEntries(home)).map((p) => path.relative(home, p)).sort();
    expect(hidden).toEqual(['.claude/.credentials.json', '.claude/projects', '.codex/auth.json', '.mewcode/mcp-oauth.json', '.mewcode/new-in-a-later-version']);
    expect(await hiddenToolEntries(path.join(home, 'missing'))).toEqual([]);
  });
});

describe('deny_read globs', () => {
  test('isGlob tells patterns from paths', () => {
    expect(isGlob('/home/u/.config/*/token')).toBe(true);
    expect(isGlob('/home/u/keys/**/*.pem')).toBe(true);
    expect(isGlob('/home/u/.netrc')).toBe(false);
    expect(isGlob('/opt/my keys/file')).toBe(false);
  });

  test('walked from their literal prefix: matching files and directories (dotfiles too), nothing else', async () => {
    const home = await tmp('mc-glob-home-');
    for (const file of ['.config/app/token', '.config/other/token', '.config/app/settings.json', 'keys/a/b/server.pem', 'keys/a/readme.md', 'work/x/.env', 'work/y/src/.env']) {
      await mkdir(path.dirname(path.join(home, file)), { recursive: true });
      await writeFile(path.join(home, file), 'x');
    }
    const rules = globReadRules([`${home}/.config/*/token`, `${home}/keys/**/*.pem`, `${home}/work/*/.env`])!;
    expect(rules.prefixes).toEqual([`${home}/.config`, `${home}/keys`, `${home}/work`]);
    const { paths, truncated } = await ruleHiddenPaths(rules, [], home);
    expect(truncated).toBe(false);
    expect(paths.map((p) => path.relative(home, p)).sort()).toEqual(['.config/app/token', '.config/other/token', 'keys/a/b/server.pem', 'work/x/.env']);
    expect(globReadRules([])).toBeUndefined();
  });
});

describe('sandbox.allow_unix_sockets', () => {
  const homeWith = async (text: string): Promise<string> => {
    const home = await tmp('mc-sock-settings-');
    await mkdir(path.join(home, '.mewcode'));
    await writeFile(path.join(home, '.mewcode', 'settings.yaml'), text);
    return home;
  };

  test('a list of ~/ or absolute paths; true for all; other values are skipped naming the place', async () => {
    const warnings: string[] = [];
    const home = await homeWith('sandbox:\n  allow_unix_sockets: [~/.colima/default/docker.sock, /run/user/1000/podman, relative.sock]\n');
    const settings = await readSandboxSettings(home, (m) => warnings.push(m));
    expect(settings.allowUnixSockets).toEqual([path.join(home, '.colima/default/docker.sock'), '/run/user/1000/podman']);
    expect(settings.allowAllUnixSockets).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/settings\.yaml:2:\d+: sandbox\.allow_unix_sockets: expected an absolute path/)]);
    expect((await readSandboxSettings(await homeWith('sandbox:\n  allow_unix_sockets: true\n'), () => undefined)).allowAllUnixSockets).toBe(true);
    const bad: string[] = [];
    expect((await readSandboxSettings(await homeWith('sandbox:\n  allow_unix_sockets: yes please\n'), (m) => bad.push(m))).allowUnixSockets).toEqual([]);
    expect(bad).toEqual([expect.stringMatching(/sandbox\.allow_unix_sockets: expected a list/)]);
  });
});

describe('arguments', () => {
  const plan = { writable: ['/p'], pinned: [], readOnly: [], blocked: [], hiddenDirs: ['/home/u/.docker'], hiddenFiles: ['/home/u/.netrc'] };
  const base = { plan, privateTmp: '/s/tmp', emptyDir: '/s/empty', network: false, cwd: '/p', argv: ['/bin/bash', '-c', 'true'] };

  test('bubblewrap: allowed sockets are bound after the hidden directory is made and before it turns read-only; --seccomp before the command', () => {
    const args = bwrapArgs({ ...base, unixSockets: ['/home/u/.docker/run/docker.sock', '/run/user/1000/podman/podman.sock'], seccomp: true });
    const at = (...seq: string[]) => args.findIndex((_, i) => seq.every((s, j) => args[i + j] === s));
    const tmpfs = at('--tmpfs', '/home/u/.docker');
    const socket = at('--ro-bind-try', '/home/u/.docker/run/docker.sock', '/home/u/.docker/run/docker.sock');
    const remount = at('--remount-ro', '/home/u/.docker');
    expect(tmpfs).toBeGreaterThan(at('--tmpfs', '/run'));
    expect(tmpfs).toBeLessThan(socket);
    expect(socket).toBeLessThan(remount);
    expect(at('--ro-bind-try', '/run/user/1000/podman/podman.sock', '/run/user/1000/podman/podman.sock')).toBeGreaterThan(at('--tmpfs', '/run'));
    expect(at('--seccomp', '3')).toBeLessThan(at('--chdir', '/p', '--'));
    // Without sockets the hidden directory is remounted read-only at once, and no --seccomp unless asked.
    const plain = bwrapArgs(base);
    expect(plain.indexOf('--seccomp')).toBe(-1);
    expect(plain[plain.indexOf('/home/u/.docker') + 1]).toBe('--remount-ro');
  });

  test('the launch: a shell closes inherited descriptors, opens the filter on descriptor 3 and becomes bubblewrap, the arguments unchanged', () => {
    const args = ['--ro-bind', '/', '/', '--', 'echo', '"$0" \'x\''];
    const close = 'for mewcode_fd in /dev/fd/*; do mewcode_fd=${mewcode_fd##*/}; case $mewcode_fd in 0|1|2) ;; *) eval "exec $mewcode_fd>&-" ;; esac; done;';
    // --norc: bash reads no ~/.bashrc on the host, even with a socket for stdin.
    expect(sandboxLaunch('/usr/bin/bwrap', args, '/s/seccomp.bpf', '/bin/bash')).toEqual({ file: '/bin/bash', args: ['--norc', '-c', `${close} exec "$@" 3<"$0"`, '/s/seccomp.bpf', '/usr/bin/bwrap', ...args] });
    // No filter (an architecture without one, or sandbox-exec): the same, without descriptor 3.
    expect(sandboxLaunch('/usr/bin/bwrap', args, undefined, '/usr/bin/bash').args.slice(0, 4)).toEqual(['--norc', '-c', `${close} exec "$@"`, 'mewcode-sandbox']);
    // Without bash, a POSIX sh closes what it can name (3–9).
    expect(sandboxLaunch('/usr/bin/bwrap', args, '/s/f.bpf', '/bin/sh').args[1]).toBe('exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; exec "$@" 3<"$0"');
  });

  test.each(['/bin/sh', ...['/bin/bash', '/usr/bin/bash'].filter(existsSync).slice(0, 1)])('the launch shell (%s) hands the program the environment it was given', (shell) => {
    // A variable named like the loop's own (f, n) reached bubblewrap, and the command, as the loop left it.
    const { file, args } = sandboxLaunch('/bin/sh', ['-c', 'printf "%s|%s|%s" "$f" "$n" "${mewcode_fd-none}"'], undefined, shell);
    const result = spawnSync(file, args, { encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', f: 'mine', n: '7' } });
    expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 0, stdout: 'mine|7|none' });
  });

  test('Seatbelt: unix-socket connections refused except the allowed paths (after the network rule), none with allowAll', () => {
    const profile = seatbeltProfile({ plan, privateTmp: '/s/tmp', network: true, argv: ['true'], unixSockets: { allowed: ['/Users/u/.colima/default/docker.sock'] } });
    const lines = profile.split('\n');
    const deny = lines.indexOf('(deny network-outbound (remote unix-socket))');
    const allow = lines.findIndex((l) => l.startsWith('(allow network-outbound (remote unix-socket (path-literal "/Users/u/.colima/default/docker.sock"))'));
    expect(deny).toBeGreaterThan(0);
    expect(allow).toBeGreaterThan(deny);
    expect(lines[allow]).toContain('(path-regex #"^/Users/u/\\.colima/default/docker\\.sock/")');
    const offline = seatbeltProfile({ plan, privateTmp: '/s/tmp', network: false, argv: ['true'] }).split('\n');
    expect(offline.indexOf('(deny network-outbound (remote unix-socket))')).toBeGreaterThan(offline.indexOf('(deny network*)'));
    expect(seatbeltProfile({ plan, privateTmp: '/s/tmp', network: true, argv: ['true'], unixSockets: { allowed: [], allowAll: true } })).not.toContain('unix-socket');
  });
});
