/**
 * The fields a configured plugin's object may declare, checked when it is loaded. A field the
 * contract does not have is ignored by the kernel, so a typo would go unseen: `requried: true`
 * (or `require`, `Required`, `isRequired`) leaves an organisation's policy plugin NOT required —
 * it fails open, skipped with a warning when it breaks. So:
 * - an unknown field is a warning naming the plugin, the field and the nearest known field;
 * - an unknown field that reads as `required` and is set (anything but false, null, undefined, 0
 *   or '') is refused the way a broken required plugin is: the plugin does not load and MewCode
 *   stops (exit 2) until the declaration says `required: true` or drops the field. The safe
 *   reading of "maybe required" is required;
 * - `required` itself must be true or false: `required: "yes"` or `1` stops the run the same way
 *   (read as false it would fail open), and `essential`/`safety` must be booleans too.
 */

/** Every field of the plugin contract (types/plugin.ts, MewcodePlugin). */
export const PLUGIN_FIELDS: readonly string[] = Object.freeze([
  'name',
  'version',
  'kernel',
  'replaces',
  'dependsOn',
  'essential',
  'safety',
  'required',
  'config',
  'configKeys',
  'bindings',
  'apply',
  'start',
  'startTimeoutMs',
  'warm',
  'dispose',
  'subcommands',
  'doctorChecks',
]);

/** A declaration the kernel cannot load; `critical`: it reads as required, so the run must stop. */
export class PluginDeclarationError extends Error {
  constructor(
    message: string,
    readonly critical: boolean,
  ) {
    super(message);
    this.name = 'PluginDeclarationError';
  }
}

/** Case-insensitive edit distance (a swap of two neighbours counts once). */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[x.length]![y.length]!;
}

/** The known field `key` is most likely a misspelling of, or undefined when none is close. */
export function nearestPluginField(key: string): string | undefined {
  let best: { field: string; score: number } | undefined;
  for (const field of PLUGIN_FIELDS) {
    const score = distance(key, field);
    if (score <= Math.max(2, Math.floor(field.length / 3)) && (!best || score < best.score)) best = { field, score };
  }
  if (best) return best.field;
  // A longer name around a known one (`isRequired`, `pluginName`, `hooksApply`).
  return PLUGIN_FIELDS.find((field) => field.length >= 4 && key.toLowerCase().includes(field.toLowerCase()));
}

/** Reads as `required`: its nearest field is `required`, or it holds "requir" (`isRequired`, `requirement`). */
function readsAsRequired(key: string): boolean {
  return nearestPluginField(key) === 'required' || key.toLowerCase().includes('requir');
}

const shown = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : typeof value === 'object' && value !== null ? (Array.isArray(value) ? 'a list' : 'an object') : String(value));

/**
 * Checks the fields of `plugin` (named `name`): warns through `warn` about each unknown one, and
 * throws a PluginDeclarationError for a declaration that must not load (critical when it reads as
 * required). Each value is read at most once.
 */
export function checkPluginFields(plugin: object, name: string, warn: (message: string) => void): void {
  for (const key of Object.keys(plugin)) {
    if (PLUGIN_FIELDS.includes(key)) continue;
    if (readsAsRequired(key)) {
      const value = (plugin as Record<string, unknown>)[key];
      if (value !== undefined && value !== null && value !== false && value !== 0 && value !== '') {
        throw new PluginDeclarationError(
          `plugin ${name} declares "${key}" (${shown(value)}), which is not a field of the plugin contract; it reads as a misspelt "required", and a required plugin must not be run as an ordinary one: write required: true (or remove "${key}")`,
          true,
        );
      }
    }
    const nearest = nearestPluginField(key);
    warn(`plugin ${name} declares "${key}", which is not a field of the plugin contract and is ignored${nearest ? ` (did you mean "${nearest}"?)` : ''}`);
  }
}

/** The value of a flag (`essential`, `safety`, `required`) as a boolean; throws when it is not one. */
export function flagValue(key: string, value: unknown, name: string): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  throw new PluginDeclarationError(`plugin ${name}: its "${key}" is ${shown(value)}, not true or false`, key === 'required');
}

/**
 * A custom build's own plugin (`Kernel.create({ plugins })`, `main(argv, plugins)`): checked as a
 * configured one is, since a team's `requried: true` on its policy plugin fails open the same way.
 * The build is the program, so every problem stops the boot (a PluginDeclarationError); an
 * unknown field that does not read as `required` is only said.
 */
export function checkBuildPlugin(plugin: { name?: unknown }, nameProblem: (name: unknown) => string | undefined, warn: (message: string) => void): void {
  const problem = nameProblem(plugin.name);
  if (problem !== undefined) throw new PluginDeclarationError(`a plugin of this build cannot be loaded: ${problem}`, true);
  const name = plugin.name as string;
  checkPluginFields(plugin, name, warn);
  for (const key of ['essential', 'safety', 'required'] as const) {
    try {
      flagValue(key, (plugin as Record<string, unknown>)[key], name);
    } catch (error) {
      throw new PluginDeclarationError((error as Error).message, true);
    }
  }
}
