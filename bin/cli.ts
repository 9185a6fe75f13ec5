/**
 * The `mewcode` entry. `--version` and `--help` answer before any plugin code is loaded; the
 * rest of MewCode is a separate chunk imported only for a real run. `audit verify` loads only
 * its own small module: it must work even when the kernel or a plugin cannot load. `doctor` loads
 * its own module, which boots the kernel itself.
 */
import { setFlagsFromString } from 'node:v8';
import { HELP, parseCommandLine } from './cli-args.js';
import { KERNEL_VERSION } from '../kernel/version.js';

async function cli(): Promise<number> {
  const command = parseCommandLine(process.argv.slice(2), process.cwd());
  switch (command.kind) {
    case 'version':
      process.stdout.write(`${KERNEL_VERSION} (MewCode)\n`);
      return 0;
    case 'help':
      process.stdout.write(HELP);
      return 0;
    case 'error':
      process.stderr.write(`mewcode: ${command.message}\n`);
      return 2;
    case 'audit-verify': {
      const { runAuditVerify } = await import('../plugins/permission-audit/verify.js');
      return runAuditVerify(command.file, { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) });
    }
    case 'doctor': {
      const { runDoctor } = await import('./doctor.js');
      return runDoctor(command.options);
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
    case 'mcp-list': {
      const { listMcpServers } = await import('./mcp-command.js');
      return listMcpServers(command.options);
    }
    case 'sessions': {
      const { listSessions } = await import('./sessions-command.js');
      return listSessions(command.cwd);
    }
    case 'run': {
      // fetch's HTTP parser is WebAssembly; V8 recompiles it with its optimising tier in the
      // background, which costs ≈30 MiB and keeps the process alive ≈100 ms after the answer.
      // The baseline tier is ample for an API client. scripts/code-cache.cjs sets the same flag.
      setFlagsFromString('--liftoff-only');
      const { main } = await import('./main.js');
      return main(command.options);
    }
  }
}

cli().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`mewcode: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
