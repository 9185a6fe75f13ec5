/**
 * Claude Code's `allowedEnvVars` on an http hook: `$VAR` and `${VAR}` in a header's value are
 * filled in from MewCode's environment for the variables the hook lists (an unset one is empty),
 * and only those: a reference to any other variable becomes empty too, so a header can never
 * carry a variable the hook did not name (an API key the settings file never mentioned).
 */
const REFERENCE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g;

export function headersWithEnv(headers: Readonly<Record<string, string>>, allowed: readonly string[] | undefined, env: NodeJS.ProcessEnv): Record<string, string> {
  const names = new Set(allowed ?? []);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = value.replace(REFERENCE, (_match, braced: string | undefined, bare: string | undefined) => {
      const variable = (braced ?? bare)!;
      return names.has(variable) ? (env[variable] ?? '') : '';
    });
  }
  return out;
}
