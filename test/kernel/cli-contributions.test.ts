/**
 * The build's subcommands and doctor checks (kernel/cli-contributions.ts): one plugin per name,
 * a clash refused naming both unless `replaces` names it, a safety layer's or essential plugin's
 * command not taken over by a configured plugin, malformed declarations left out loudly.
 */
import type { CliSubcommand, DoctorCheck } from '../../types/cli.js';
import type { MewcodePlugin } from '../../types/plugin.js';
import { collectDoctorChecks, collectSubcommands, resolveBuildPlugins, type BuildPlugins } from '../../kernel/cli-contributions.js';
import { emptyConfig } from '../../kernel/empty-config.js';
import type { ResolvedConfig } from '../../types/config.js';

const command = (name: string): CliSubcommand => ({ name, usage: name, summary: `${name} things`, run: () => 0 });
const check = (name: string): DoctorCheck => ({ name, run: () => [] });

function build(fromBuild: MewcodePlugin[], configured: MewcodePlugin[] = []): BuildPlugins {
  return { plugins: [...fromBuild, ...configured], fromBuild: (plugin) => fromBuild.includes(plugin) };
}

function subcommands(set: BuildPlugins, reserved: string[] = []): { owners: Record<string, string>; warnings: string[] } {
  const warnings: string[] = [];
  const found = collectSubcommands(set, { reserved: new Set(reserved), warn: (m) => warnings.push(m) });
  return { owners: Object.fromEntries([...found].map(([name, { plugin }]) => [name, plugin.name])), warnings };
}

test('a second plugin with the same command is refused naming both; with replaces it takes the name', () => {
  const session: MewcodePlugin = { name: 'session', subcommands: [command('sessions')] };
  const squatter: MewcodePlugin = { name: 'squatter', subcommands: [command('sessions'), command('extra')] };
  expect(subcommands(build([session], [squatter]))).toEqual({
    owners: { sessions: 'session', extra: 'squatter' },
    warnings: ["plugin squatter: subcommand sessions is already contributed by plugin session; its sessions is not available (declare replaces: ['sessions'] to replace it)"],
  });
  const successor: MewcodePlugin = { name: 'successor', replaces: ['sessions'], subcommands: [command('sessions')] };
  expect(subcommands(build([session], [successor]))).toEqual({ owners: { sessions: 'successor' }, warnings: [] });
});

test("a safety layer's or an essential plugin's command cannot be taken over from configuration; a custom build may", () => {
  const audit: MewcodePlugin = { name: 'permission-audit', safety: true, subcommands: [command('audit')] };
  const sandbox: MewcodePlugin = { name: 'sandbox-os', essential: true, subcommands: [command('sandbox')] };
  const forger: MewcodePlugin = { name: 'forger', replaces: ['audit', 'sandbox'], subcommands: [command('audit'), command('sandbox')] };
  const configured = subcommands(build([audit, sandbox], [forger]));
  expect(configured.owners).toEqual({ audit: 'permission-audit', sandbox: 'sandbox-os' });
  expect(configured.warnings).toEqual([
    'plugin forger: subcommand audit belongs to the safety layer permission-audit, which configuration cannot replace; left out',
    'plugin forger: subcommand sandbox belongs to the essential plugin sandbox-os, which configuration cannot replace; left out',
  ]);
  expect(subcommands(build([audit, sandbox, forger])).owners).toEqual({ audit: 'forger', sandbox: 'forger' });
});

test("a required plugin's command (required: true on it or in its configuration entry) cannot be taken over from configuration", () => {
  const policy: MewcodePlugin = { name: 'org-policy', subcommands: [command('org-report')], doctorChecks: [check('org-check')] };
  const forger: MewcodePlugin = { name: 'forger', replaces: ['org-report', 'org-check'], subcommands: [command('org-report')], doctorChecks: [check('org-check')] };
  const set: BuildPlugins = { plugins: [policy, forger], fromBuild: () => false, isRequired: (plugin) => plugin === policy };
  const result = subcommands(set);
  expect(result.owners).toEqual({ 'org-report': 'org-policy' });
  expect(result.warnings).toEqual(['plugin forger: subcommand org-report belongs to the required plugin org-policy, which configuration cannot replace; left out']);
  const warnings: string[] = [];
  expect(collectDoctorChecks(set, { warn: (m) => warnings.push(m) }).map((c) => c.plugin.name)).toEqual(['org-policy']);
  expect(warnings).toEqual(['plugin forger: doctor check org-check belongs to the required plugin org-policy, which configuration cannot replace; left out']);
  // Not required: the replacement is taken, as before.
  expect(subcommands({ ...set, isRequired: () => false }).owners).toEqual({ 'org-report': 'forger' });
});

test("MewCode's own words, bad names and malformed declarations are left out, each said", () => {
  const odd = {
    name: 'odd',
    subcommands: [command('doctor'), command('Bad Name'), { name: 'norun', usage: '', summary: '' }, null, command('fine')],
  } as unknown as MewcodePlugin;
  const notAList = { name: 'flat', subcommands: command('flat') } as unknown as MewcodePlugin;
  const result = subcommands(build([odd, notAList]), ['doctor']);
  expect(result.owners).toEqual({ fine: 'odd' });
  expect(result.warnings).toEqual([
    "plugin odd: subcommand doctor is MewCode's own; left out",
    'plugin odd: a subcommand without a valid name (lower case letters, digits, -) or run(); left out',
    'plugin odd: a subcommand without a valid name (lower case letters, digits, -) or run(); left out',
    'plugin odd: a subcommand without a valid name (lower case letters, digits, -) or run(); left out',
    'plugin flat: its subcommands are not a list; none of them is available',
  ]);
});

test('doctor checks: in plugin order, clashes refused as for commands', () => {
  const warnings: string[] = [];
  const checks = collectDoctorChecks(build([{ name: 'a', doctorChecks: [check('sandbox')] }, { name: 'b', doctorChecks: [check('ripgrep'), check('sandbox')] }]), { warn: (m) => warnings.push(m) });
  expect(checks.map(({ item, plugin }) => `${plugin.name}:${item.name}`)).toEqual(['a:sandbox', 'b:ripgrep']);
  expect(warnings).toEqual([expect.stringContaining('plugin b: doctor check sandbox is already contributed by plugin a')]);
});

test("the plugin set is the boot's: disable: removes a plugin and with it its command", async () => {
  const config: ResolvedConfig = { ...emptyConfig, section: (key) => (key === 'disable' ? ['session'] : undefined) };
  const session: MewcodePlugin = { name: 'session', subcommands: [command('sessions')] };
  const hooks: MewcodePlugin = { name: 'hooks', subcommands: [command('hooks')] };
  const resolved = await resolveBuildPlugins({ plugins: [session, hooks], config, projectRoot: '/nonexistent', homeDir: '/nonexistent', warn: () => undefined });
  expect(resolved.plugins.map((p) => p.name)).toEqual(['hooks']);
  expect(subcommands(resolved).owners).toEqual({ hooks: 'hooks' });
});
