/**
 * `${NAME}` expansion (M3), and `${NAME:-default}` as Claude Code's `.mcp.json` writes it (the
 * value when set and not empty, else the default, up to the first `}`; never warned about).
 * `$NAME`, `${}` and everything else stay literal. An undefined variable becomes the empty
 * string with one warning per variable name per expander. A variable set to the empty string is
 * not "undefined" and is used silently.
 */
export const VAR_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export function createVarExpander(
  env: NodeJS.ProcessEnv,
  warn: (message: string) => void,
): (value: string, where: string) => string {
  const warned = new Set<string>();
  return (value, where) =>
    value.replace(VAR_REFERENCE, (_match, name: string, fallback: string | undefined) => {
      const found = Object.hasOwn(env, name) ? env[name] : undefined;
      if (fallback !== undefined) return found === undefined || found === '' ? fallback : found;
      if (found !== undefined) return found;
      if (!warned.has(name)) {
        warned.add(name);
        warn(`config: \${${name}} is not set (used in ${where}); using an empty value`);
      }
      return '';
    });
}
