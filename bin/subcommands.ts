/**
 * Every command-line form except a run: answered the same way by the `mewcode` entry
 * (bin/cli.ts, which must stay light) and by `main()` (custom builds, which pass their plugin
 * list). Each subcommand's module is imported only when it is asked for.
 */
import type { MewcodePlugin } from '../types/plugin.js';
import { HELP, type ParsedCommand } from './cli-args.js';
import { KERNEL_VERSION } from '../kernel/version.js';
// Every subcommand prints through the terminal-safe filter: they show files, servers and hooks.
import { terminal } from '../config/terminal-safe.js';

export type Subcommand = Exclude<ParsedCommand, { kind: 'run' }>;

/** `plugins`: a custom build's list (doctor and `mcp list` boot with it); default the built-in set. */
export async function runSubcommand(command: Subcommand, plugins?: readonly MewcodePlugin[]): Promise<number> {
  switch (command.kind) {
    case 'version':
      terminal.out(`${KERNEL_VERSION} (MewCode)\n`);
      return 0;
    case 'help':
      terminal.out(HELP);
      return 0;
    case 'error':
      terminal.err(`mewcode: ${command.message}\n`);
      return 2;
    case 'audit-verify': {
      const { runAuditVerify } = await import('../plugins/permission-audit/verify.js');
      return runAuditVerify(command.file, { stdout: terminal.out, stderr: terminal.err });
    }
    case 'doctor': {
      const { runDoctor } = await import('./doctor.js');
      return runDoctor(command.options, plugins ? { plugins } : {});
    }
    case 'sessions': {
      const { listSessions } = await import('./sessions-command.js');
      return listSessions(command.cwd);
    }
    case 'hooks': {
      const { listHooks } = await import('./hooks-command.js');
      return listHooks(command.options);
    }
    case 'skills-list': {
      const { listSkills } = await import('./skills-command.js');
      return listSkills(command.options);
    }
    case 'skills-install': {
      const { installSkillCommand } = await import('./skills-command.js');
      return installSkillCommand(command.options, command.url, command.scope);
    }
    case 'plugin': {
      const { runPluginCommand } = await import('./plugin-command.js');
      return runPluginCommand(command);
    }
    case 'mcp-list': {
      const { listMcpServers } = await import('./mcp-command.js');
      return listMcpServers(command.options, plugins);
    }
  }
}
