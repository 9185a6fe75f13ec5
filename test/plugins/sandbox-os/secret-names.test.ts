/**
 * The class rule behind the credential list (secret-names.ts): files whose names say secret or
 * history, found by a bounded scan of a real (temporary) home. What builds read must stay
 * readable: a realistic developer's home is scanned and none of its toolchains, package caches
 * or build settings may come back.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MAX_DIR_ENTRIES, RESCAN_MS, SCAN_DEPTH, SecretNameScans, secretNameKind, secretNamedPaths } from '../../../plugins/sandbox-os/secret-names.js';

const made: string[] = [];
async function homeWith(files: readonly string[], content: (file: string) => string = () => 'x'): Promise<string> {
  const home = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mc-secret-names-')));
  made.push(home);
  for (const file of files) {
    await mkdir(path.dirname(path.join(home, file)), { recursive: true });
    await writeFile(path.join(home, file), content(file));
  }
  return home;
}
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});
const relative = (home: string, paths: readonly string[]): string[] => paths.map((p) => path.relative(home, p)).sort();

describe('what a name says', () => {
  test.each([
    ['api_token', 'secret'],
    ['github_token', 'secret'],
    ['access-token', 'secret'],
    ['.vault-token', 'secret'],
    ['credentials.json', 'secret'],
    ['.git-credentials', 'secret'],
    ['oauth_creds.json', 'secret'],
    ['.secrets', 'secret'],
    ['secrets.zsh', 'secret'],
    ['auth.json', 'secret'],
    ['db-password.txt', 'secret'],
    ['vast_api_key', 'secret'],
    ['apikey', 'secret'],
    ['Cookies', 'secret'],
    ['Login Data', 'secret'],
    ['deploy_key', 'key'],
    ['keys.txt', 'key'],
    ['minisign.key', 'key'],
    ['AuthKey_ABC123.p8', 'key'],
    ['client.p12', 'key'],
    ['work.ppk', 'key'],
    ['id_ed25519', 'key'],
    ['id_rsa_work', 'key'],
    ['.zsh_history', 'history'],
    ['history.txt', 'history'],
    ['history', 'history'],
    ['repl_history.jl', 'history'],
    ['.mycli-history', 'history'],
    ['.Rhistory', 'history'],
    ['.zhistory', 'history'],
    ['.histfile', 'history'],
    ['.env', 'dotenv'],
    ['.env.production', 'dotenv'],
    ['.envrc', 'dotenv'],
    ['prod.env', 'dotenv'],
    ['cert.pem', 'pem'],
    ['mcp.json', 'secret'],
    ['.mcp.json', 'secret'],
    ['mcp_config.json', 'secret'],
    ['cline_mcp_settings.json', 'secret'],
    ['mcp-servers.json', 'secret'],
    ['claude_desktop_config.json', 'secret'],
  ] as const)('file %s: %s', (name, kind) => {
    expect(secretNameKind(name, false)).toBe(kind);
  });

  test.each([
    'id_ed25519.pub', 'deploy_key.pub', 'tokenizer.json', 'tokenizer_config.json', 'oauth2.py', 'keyring.cfg', 'monkey.txt', 'keybindings.json',
    'key-bindings.zsh', 'debug.keystore', 'release.jks', 'gradle.properties', 'settings.xml', 'config.toml', '.gitconfig', 'env', 'environment',
    'ca-bundle.crt', 'hosts.yml', 'authority', '.ICEauthority', 'historyfile.go', 'authentication.js', 'mcp.py', 'mcp.json.d', 'mcpelauncher.json',
  ])('file %s: nothing', (name) => {
    expect(secretNameKind(name, false)).toBeUndefined();
  });

  test('a directory only by its whole name: a package or a project named after a word is not one', () => {
    for (const name of ['secrets', '.secrets', 'credentials', '.credentials', 'tokens', 'keys', 'private_keys', 'auth', 'history', 'Local Storage']) expect(secretNameKind(name, true)).toBeDefined();
    for (const name of ['auth-service-Xa3-py3.12', 'system.identitymodel.tokens.jwt', 'js-tokens', 'google-auth-2.0-py_0', 'com.google.auth', 'keyring', 'secretstorage', 'history_json']) {
      expect({ name, kind: secretNameKind(name, true) }).toEqual({ name, kind: undefined });
    }
  });
});

/** What a developer's home holds for builds: none of it may be hidden. */
const BUILD_FILES = [
  // node / npm / yarn / pnpm / bun / deno
  '.npmrc.d/README',
  '.npm/_cacache/index-v5/0a/1b/8f3e',
  '.npm/_npx/1a2b/node_modules/js-tokens/package.json',
  '.npm/_logs/2026-01-01T00_00_00_000Z-debug-0.log',
  '.nvm/versions/node/v20.11.0/bin/node',
  '.nvm/versions/node/v20.11.0/lib/node_modules/npm/lib/utils/auth.js',
  '.nvm/nvm.sh',
  '.npm-global/lib/node_modules/js-tokens/index.js',
  '.config/yarn/global/node_modules/secrets-manager/index.js',
  '.local/share/pnpm/store/v3/files/00/abc-index.json',
  '.local/share/pnpm/global/5/node_modules/tokens/index.js',
  '.bun/install/cache/js-tokens@4.0.0/index.js',
  '.bun/bin/bun',
  '.deno/bin/deno',
  // rust
  '.cargo/bin/cargo',
  '.cargo/bin/cargo-auth',
  '.cargo/config.toml',
  '.cargo/env',
  '.cargo/registry/cache/index.crates.io-6f17d22bba15001f/oauth2-4.4.2.crate',
  '.cargo/registry/src/index.crates.io-6f17d22bba15001f/secrecy-0.8.0/src/lib.rs',
  '.cargo/git/checkouts/auth-rs-1a2b3c/main/Cargo.toml',
  '.rustup/toolchains/stable-x86_64-unknown-linux-gnu/bin/rustc',
  '.rustup/settings.toml',
  '.rustup/update-hashes/stable-x86_64-unknown-linux-gnu',
  // python
  '.pyenv/versions/3.12.1/bin/python3.12',
  '.pyenv/versions/3.12.1/lib/python3.12/secrets.py',
  '.pyenv/shims/python',
  '.pyenv/version',
  '.local/lib/python3.12/site-packages/keyring/credentials.py',
  '.local/bin/poetry',
  '.cache/pip/http-v2/a/b/c/d/e/0123',
  '.cache/pypoetry/virtualenvs/auth-service-Xa3bC9-py3.12/pyvenv.cfg',
  '.cache/pypoetry/artifacts/12/34/google_auth-2.0-py3-none-any.whl',
  '.local/share/virtualenvs/token-api-AbC123/bin/python',
  '.conda/pkgs/google-auth-2.0-py_0/info/index.json',
  '.conda/envs/secrets-env/bin/python',
  '.config/pip/README',
  // go
  'go/pkg/mod/golang.org/x/oauth2@v0.15.0/token.go',
  '.cache/go-build/ab/abcdef0123-d',
  '.config/go/env',
  // java: gradle, maven, sdkman, android
  '.gradle/caches/modules-2/files-2.1/com.google.auth/google-auth-library-credentials/1.0/a.jar',
  '.gradle/wrapper/dists/gradle-8.5-bin/5t9huq95ubn472n8rpzujfbqh/gradle-8.5/bin/gradle',
  '.gradle/init.d/mirror.gradle',
  '.gradle/daemon/8.5/daemon-1234.out.log',
  '.m2/repository/com/google/auth/google-auth-library-oauth2-http/1.0/x.jar',
  '.m2/repository/io/jsonwebtoken/jjwt/0.12/jjwt-0.12.pom',
  '.m2/toolchains.xml',
  '.sdkman/candidates/java/current/lib/security/cacerts',
  '.android/debug.keystore',
  '.android/avd/Pixel.avd/config.ini',
  // .NET
  '.nuget/packages/system.identitymodel.tokens.jwt/7.0.0/system.identitymodel.tokens.jwt.nuspec',
  '.nuget/packages/azure.security.keyvault.secrets/4.5.0/azure.security.keyvault.secrets.nuspec',
  '.dotnet/tools/dotnet-user-secrets',
  // ruby, php, elixir, haskell
  '.gem/ruby/3.2.0/gems/jwt-2.7/lib/jwt/token.rb',
  '.rbenv/versions/3.2.0/bin/ruby',
  '.config/composer/vendor/bin/phpunit',
  '.hex/packages/hexpm/jose/1.11.0.tar',
  '.mix/archives/hex-2.0.6/hex-2.0.6/ebin/hex.app',
  '.cabal/packages/hackage.haskell.org/01-index.tar',
  '.ghcup/bin/ghc',
  // editors, shells' code, git
  '.vscode/extensions/ms-python.python-2024.0.0/out/client/auth.js',
  '.vscode-server/bin/abc/node',
  '.oh-my-zsh/plugins/history/history.plugin.zsh',
  '.oh-my-zsh/lib/history.zsh',
  '.vim/plugged/vim-secrets/plugin/secrets.vim',
  '.gitconfig',
  '.config/git/ignore',
  '.config/git/config',
  '.dotfiles/.git/config',
  // a CA bundle a build trusts (NODE_EXTRA_CA_CERTS, pip's cert =)
  '.config/corp/ca-bundle.pem',
  // the user's own files outside dot-directories
  'work/app/.env',
  'work/app/secrets.yaml',
  'Documents/passwords-policy.pdf',
];

/** Secrets of tools no list names: each must be hidden. */
const SECRET_FILES = [
  '.secrets',
  'api_token.txt',
  '.config/someai/api_key',
  '.config/othercloud/credentials.json',
  '.config/newtool/auth.json',
  '.config/thing/sub/token',
  '.local/share/newshell/history.db',
  '.local/state/somerepl/history',
  '.somecli/session/cookies.txt',
  '.sometool/.env',
  '.deploy/keys/prod.json',
  '.signing/release-key.asc',
  '.config/vpn/office.ovpn',
  '.config/tls/client.pem',
  '.oh-my-zsh/custom/secrets.zsh',
  '.appdata/AuthKey_ABCD.p8',
  '.backup/id_ed25519',
];

describe('the scan of a home', () => {
  let home: string;
  beforeAll(async () => {
    home = await homeWith([...BUILD_FILES, ...SECRET_FILES], (file) =>
      file.endsWith('client.pem') ? '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n' : file.endsWith('.pem') ? '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n' : 'x',
    );
  });

  test("a realistic developer's home: every unnamed secret is found, nothing builds read is", async () => {
    const { paths, truncated } = await secretNamedPaths(home);
    expect(truncated).toBe(false);
    const found = relative(home, paths);
    const covers = (hidden: string, file: string): boolean => file === hidden || file.startsWith(`${hidden}/`);
    expect(BUILD_FILES.filter((file) => found.some((hidden) => covers(hidden, file)))).toEqual([]);
    expect(SECRET_FILES.filter((file) => !found.some((hidden) => covers(hidden, file)))).toEqual([]);
  });

  test('the writable roots and the lists\' own directories are not entered; XDG homes elsewhere are', async () => {
    const xdg = await homeWith(['elsewhere/tool/token']);
    const { paths } = await secretNamedPaths(home, { skip: [path.join(home, '.config/othercloud'), path.join(home, '.sometool')], extraRoots: [path.join(xdg, 'elsewhere')] });
    const found = relative(home, paths);
    expect(found).not.toContain('.config/othercloud/credentials.json');
    expect(found).not.toContain('.sometool/.env');
    expect(paths).toContain(path.join(xdg, 'elsewhere/tool/token'));
  });

  test('a link is matched by its name, never entered', async () => {
    const linked = await homeWith(['target/inner/token', '.tool/readme']);
    await symlink(path.join(linked, 'target'), path.join(linked, '.tool/linked-dir'));
    await symlink(path.join(linked, 'target/inner/token'), path.join(linked, '.tool/api_token'));
    expect(relative(linked, (await secretNamedPaths(linked)).paths)).toEqual(['.tool/api_token']);
  });

  test('a .pem that cannot be read without blocking (a FIFO) is hidden, and the scan does not stall', async () => {
    const fifoHome = await homeWith(['.tool/readme']);
    execFileSync('mkfifo', [path.join(fifoHome, '.tool/pipe.pem')]);
    expect(relative(fifoHome, (await secretNamedPaths(fifoHome)).paths)).toEqual(['.tool/pipe.pem']);
  });
});

describe('bounds, at their boundaries', () => {
  test(`depth: ${SCAN_DEPTH} levels below a dot-directory, not one more`, async () => {
    const home = await homeWith(['.tool/a/b/token', '.tool/a/b/c/token', '.config/x/y/token', '.config/x/y/z/token', '.local/share/x/y/token', '.local/share/x/y/z/token']);
    expect(relative(home, (await secretNamedPaths(home)).paths)).toEqual(['.config/x/y/token', '.local/share/x/y/token', '.tool/a/b/token']);
  });

  test(`a directory of ${MAX_DIR_ENTRIES} entries is entered, one of ${MAX_DIR_ENTRIES + 1} is not (its own entries are still matched)`, async () => {
    const filler = (dir: string, count: number): string[] => Array.from({ length: count }, (_, i) => `${dir}/f${i}`);
    const home = await homeWith([
      ...filler('.tool/small', MAX_DIR_ENTRIES - 2), '.tool/small/token', '.tool/small/sub/token',
      ...filler('.tool/large', MAX_DIR_ENTRIES - 1), '.tool/large/token', '.tool/large/sub/token',
    ]);
    expect(relative(home, (await secretNamedPaths(home)).paths)).toEqual(['.tool/large/token', '.tool/small/sub/token', '.tool/small/token']);
  });

  test('entries looked at: exactly the bound is complete, one fewer is truncated', async () => {
    const home = await homeWith(['.a/x', '.a/token', '.b/y']);
    // home: .a .b (2) + .a: x token (2) + .b: y (1) = 5 entries
    expect(await secretNamedPaths(home, { maxEntries: 5 })).toEqual({ paths: [path.join(home, '.a/token')], truncated: false });
    expect((await secretNamedPaths(home, { maxEntries: 4 })).truncated).toBe(true);
  });

  test('directories listed: exactly the bound is complete, one fewer is truncated', async () => {
    const home = await homeWith(['.a/token', '.b/y']);
    // the home, .local/share and .local/state (missing, still tried), then .a and .b = 5 listings
    expect((await secretNamedPaths(home, { maxDirs: 5 })).truncated).toBe(false);
    const short = await secretNamedPaths(home, { maxDirs: 4 });
    expect(short.truncated).toBe(true);
  });

  test('hidden paths: exactly the bound is complete, one more is truncated (the first ones kept)', async () => {
    const home = await homeWith(['.a/token', '.a/secret', '.a/password']);
    expect((await secretNamedPaths(home, { maxNamed: 3 })).truncated).toBe(false);
    const over = await secretNamedPaths(home, { maxNamed: 2 });
    expect(over).toEqual({ paths: expect.any(Array), truncated: true });
    expect(over.paths).toHaveLength(2);
  });

  test('.pem files read: beyond the bound one is hidden unread (a certificate too)', async () => {
    const home = await homeWith(['.a/one.pem', '.a/two.pem'], () => '-----BEGIN CERTIFICATE-----\n');
    expect((await secretNamedPaths(home, { maxPemReads: 2 })).paths).toEqual([]);
    expect((await secretNamedPaths(home, { maxPemReads: 1 })).paths).toHaveLength(1);
  });
});

describe('once per process, then in the background', () => {
  test('the first call waits for a scan; later calls use the newest finished one; the next starts after a command', async () => {
    const home = await homeWith(['.tool/readme']);
    let scans = 0;
    let clock = 0;
    const waiting: [run: () => void, ms: number][] = [];
    const scans$ = new SecretNameScans(
      async (dir, options) => {
        scans += 1;
        return secretNamedPaths(dir, options);
      },
      () => clock,
      (run, ms) => waiting.push([run, ms]),
    );
    expect((await scans$.get(home)).paths).toEqual([]);
    expect(scans).toBe(1);
    await writeFile(path.join(home, '.tool/token'), 'x');
    // A command's preparation uses the newest scan and starts none (it would take the command's time)...
    expect((await scans$.get(home)).paths).toEqual([]);
    expect(scans).toBe(1);
    // ...the command's end does, but not within RESCAN_MS of the last scan's start: then it
    // starts when the interval ends (once, however many commands end meanwhile), so a session
    // that stays idle after its last command still gets a scan after it...
    clock = RESCAN_MS - 1;
    scans$.refresh();
    scans$.refresh();
    expect(scans).toBe(1);
    expect(waiting.map(([, ms]) => ms)).toEqual([1]);
    clock = RESCAN_MS;
    waiting.shift()![0]();
    expect(scans).toBe(2);
    // ...and once (a refresh already running is not doubled)...
    scans$.refresh();
    scans$.refresh();
    expect(scans).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // ...and the next command uses it.
    expect((await scans$.get(home)).paths).toEqual([path.join(home, '.tool/token')]);
    // The interval counts from that scan's start.
    clock = 2 * RESCAN_MS - 1;
    scans$.refresh();
    expect(scans).toBe(2);
    expect(waiting.map(([, ms]) => ms)).toEqual([1]);
    clock = 2 * RESCAN_MS;
    scans$.refresh();
    expect(scans).toBe(3);
    // The deferred one, firing after that scan began, starts none beside it.
    waiting.shift()![0]();
    expect(scans).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // A scan that failed is not kept: the next call scans again.
    let failing = true;
    const flaky = new SecretNameScans(async (dir, options) => {
      if (failing) throw new Error('EIO');
      return secretNamedPaths(dir, options);
    });
    await expect(flaky.get(home)).rejects.toThrow('EIO');
    failing = false;
    expect((await flaky.get(home)).paths).toEqual([path.join(home, '.tool/token')]);
    // Another home (or other skipped directories) scans anew at once.
    const other = await homeWith(['.x/secret']);
    expect((await scans$.get(other)).paths).toEqual([path.join(other, '.x/secret')]);
  });
});
