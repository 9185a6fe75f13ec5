/**
 * A project, a fake home with canary secrets, and a directory outside both with canaries; the
 * real bash tool wired to a real OsCommandSandbox. Every destructive target is in a temp dir.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createOutputLimits } from '../../../plugins/output-limits/index.js';
import { createPermissionRulesPlugin } from '../../../plugins/permission-rules/index.js';
import sandboxOs from '../../../plugins/sandbox-os/index.js';
import { OsCommandSandbox } from '../../../plugins/sandbox-os/service.js';
import { BashTool } from '../../../plugins/tool-bash/bash-tool.js';
import type { AgentSession } from '../../../types/session.js';
import type { SandboxReadRules, SandboxStatus } from '../../../types/sandbox.js';
import type { ToolOutput } from '../../../types/tools.js';
import { TOKENS } from '../../../types/tokens.js';
import { bootKernel } from '../../support/boot.js';
import { noLateOutput } from '../../support/tool-context.js';

export const SECRET = 'FAKE-PRIVATE-KEY-CANARY-7f3a';
export const OUTSIDE_TEXT = 'outside-canary\n';
export const GIT_CONFIG = '[core]\n\trepositoryformatversion = 0\n';

export interface SandboxFixture {
  root: string;
  home: string;
  outside: string;
  sandbox: OsCommandSandbox;
  tool: BashTool;
  warnings: string[];
  status: SandboxStatus;
  run(command: string, timeout?: number): Promise<ToolOutput>;
}

/**
 * The home and the outside canaries live in /var/tmp, not /tmp: inside the sandbox /tmp is a
 * private directory, so anything under the host's /tmp would simply be absent there and the
 * attempts on it would prove nothing.
 */
const VISIBLE_TMP = process.env.MEWCODE_TEST_VISIBLE_TMP ?? (existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir());

async function tmp(prefix: string, base = VISIBLE_TMP): Promise<string> {
  return realpath(await mkdtemp(path.join(base, prefix)));
}

export interface FixtureOptions {
  /** The `sandbox:` part of ~/.mewcode/settings.yaml, as YAML text (after `sandbox:`); may use the fixture's directories. */
  sandboxYaml?: string | ((dirs: { outside: string; home: string }) => string);
  additionalDirectories?: string[];
  /** The sweep's bound (default MAX_SWEEP_DIRS), to reach it with a small tree. */
  maxSweepDirs?: number;
  /** Where the project is made: /var/tmp by default; os.tmpdir() checks a project under the host's /tmp. */
  projectBase?: string;
  /** Extra files in the project, relative path → content. */
  projectFiles?: Record<string, string>;
  /**
   * `permissions.deny` rules for ~/.mewcode/settings.yaml (may use the fixture's directories).
   * Given, the sandbox comes from a booted kernel with permission-rules and sandbox-os, so the
   * rules reach it the way they do in MewCode (TOKENS.SearchPolicy).
   */
  denyRules?: (dirs: { outside: string; home: string }) => string[];
  /** Where the domain proxy connects an allowed host (tests map names to a local server). */
  proxyConnectTo?: (host: string, port: number) => { host: string; port: number };
  /** The read rules the sandbox asks for at each preparation (what permission-rules gives it in MewCode). */
  readRules?: () => SandboxReadRules | undefined;
}

export async function sandboxFixture(options: FixtureOptions = {}): Promise<SandboxFixture> {
  const root = await tmp('mc-sbx-proj-', options.projectBase);
  const home = await tmp('mc-sbx-home-');
  const outside = await tmp('mc-sbx-out-');
  await mkdir(path.join(root, '.git', 'hooks'), { recursive: true });
  await writeFile(path.join(root, '.git', 'config'), GIT_CONFIG);
  await writeFile(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  await mkdir(path.join(root, '.mewcode'), { recursive: true });
  await writeFile(path.join(root, '.mewcode', 'audit.jsonl'), '{"n":1}\n');
  for (const [file, content] of Object.entries(options.projectFiles ?? {})) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), content);
  }
  await mkdir(path.join(home, '.ssh'), { recursive: true });
  await writeFile(path.join(home, '.ssh', 'id_rsa'), `-----BEGIN OPENSSH PRIVATE KEY-----\n${SECRET}\n`);
  await mkdir(path.join(home, '.aws'), { recursive: true });
  await writeFile(path.join(home, '.aws', 'credentials'), `aws_secret_access_key = ${SECRET}\n`);
  await writeFile(path.join(home, '.netrc'), `machine example.com password ${SECRET}\n`);
  await writeFile(path.join(home, 'keep.txt'), OUTSIDE_TEXT);
  await mkdir(path.join(home, '.mewcode'), { recursive: true });
  await writeFile(path.join(home, '.mewcode', 'trust.json'), JSON.stringify({ secret: SECRET }));
  const settings: string[] = [];
  if (options.sandboxYaml !== undefined) {
    const yaml = typeof options.sandboxYaml === 'function' ? options.sandboxYaml({ outside, home }) : options.sandboxYaml;
    settings.push(`sandbox:${yaml}\n`);
  }
  if (options.denyRules) settings.push(`permissions:\n  deny: ${JSON.stringify(options.denyRules({ outside, home }))}\n`);
  if (settings.length > 0) await writeFile(path.join(home, '.mewcode', 'settings.yaml'), settings.join(''));
  await writeFile(path.join(outside, 'canary.txt'), OUTSIDE_TEXT);
  await writeFile(path.join(outside, 'denied.txt'), `${SECRET}\n`);

  const warnings: string[] = [];
  let sandbox: OsCommandSandbox;
  if (options.denyRules) {
    const { kernel } = await bootKernel([], [createPermissionRulesPlugin(), sandboxOs], { projectRoot: root, homeDir: home });
    sandbox = kernel.container.get(TOKENS.CommandSandbox) as OsCommandSandbox;
  } else {
    sandbox = new OsCommandSandbox({
      homeDir: home,
      warn: (m) => warnings.push(m),
      additionalDirectories: () => options.additionalDirectories ?? [],
      ...(options.proxyConnectTo ? { proxyConnectTo: options.proxyConnectTo } : {}),
      ...(options.maxSweepDirs !== undefined ? { maxSweepDirs: options.maxSweepDirs } : {}),
      ...(options.readRules ? { readRules: options.readRules } : {}),
    });
    await sandbox.start();
  }
  const status = await sandbox.probe();
  const tool = new BashTool(createOutputLimits(path.join(root, '.mewcode', 'tool-output')), {
    sandbox: () => sandbox,
    sourceEnv: () => ({ ...process.env, HOME: home }),
  });
  let calls = 0;
  const run = (command: string, timeout = 20_000): Promise<ToolOutput> =>
    tool.execute(
      { command, timeout },
      {
        signal: new AbortController().signal,
        projectRoot: root,
        homeDir: home,
        sessionId: 'sandbox-test',
        agentId: 'main',
        session: undefined as unknown as AgentSession,
        toolCallId: `call_sbx_${++calls}`,
        lateOutput: noLateOutput,
      },
    );
  return { root, home, outside, sandbox, tool, warnings, status, run };
}

/**
 * Where no sandbox can run: record the skip (with the reason) in the security tally. Under
 * MEWCODE_REQUIRE_SANDBOX=1 (CI, where .ci/run saw bubblewrap work) a missing sandbox fails.
 */
export function skipWithoutSandbox(tally: { skip(count: number, reason: string): void }, name: string, status: SandboxStatus, count = 1): boolean {
  if (status.active) return false;
  if (process.env.MEWCODE_REQUIRE_SANDBOX === '1') throw new Error(`${name}: the OS sandbox must run here (MEWCODE_REQUIRE_SANDBOX=1) but: ${status.reason}`);
  tally.skip(count, `${name}: ${status.reason}`);
  return true;
}

/**
 * git in the fixture's project as the user runs it on the host (no system configuration, the
 * fixture's home), with `config` as extra `-c` settings; `fx` is read at each call (a test file
 * makes a new fixture per test).
 */
export function gitIn(fx: () => SandboxFixture, config: readonly string[] = [], encoding: BufferEncoding = 'utf8'): (...args: string[]) => string {
  return (...args) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...config.flatMap((setting) => ['-c', setting]), ...args], {
      cwd: fx().root,
      encoding,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH, HOME: fx().home, GIT_CONFIG_NOSYSTEM: '1' },
    });
}

/** The fixture's project as a fresh repository (branch main) with one commit of `files`. */
export function commitProject(fx: SandboxFixture, git: (...args: string[]) => string, files: Record<string, string>, message: string): void {
  rmSync(path.join(fx.root, '.git'), { recursive: true, force: true });
  git('init', '-q', '-b', 'main');
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(fx.root, name), text);
  git('add', '-A');
  git('commit', '-q', '-m', message);
}
