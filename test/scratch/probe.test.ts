import { readFileSync } from 'node:fs';
import { bootPermissions, canaryDirs, judge } from '../plugins/permission-rules/security-kernel.js';
test('probe', async () => {
  const dirs = canaryDirs();
  const denyK = await bootPermissions(dirs, { disallowedTools: ['Bash(rm:*)'], allowedTools: ['Bash'] });
  const bl = await bootPermissions(dirs);
  const cmds = readFileSync(process.env.PROBE!, 'utf8').split('\n@@\n').filter((c) => c.trim());
  const out: string[] = [];
  for (const c of cmds) {
    const a = await judge(denyK, 'bash', { command: c }, 'bypassPermissions');
    const b = await judge(bl, 'bash', { command: c }, 'bypassPermissions');
    out.push(`${a?.reason}
${b?.reason}
${(a?.decision ?? 'none').padEnd(5)} ${(b?.decision ?? 'none').padEnd(5)} ${JSON.stringify(c)}`);
  }
  console.log(out.join('\n'));
  dirs.cleanup();
});
