/**
 * `${NAME}` expansion (M3). Only that exact form is expanded; `$NAME`, `${NAME:-x}`,
 * `${}` and everything else stay literal. An undefined variable becomes the empty string with
 * one warning per variable name per expander. A variable set to the empty string is not
 * "undefined" and is used silently.
 */
const VAR_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export function createVarExpander(
  env: NodeJS.ProcessEnv,
  warn: (message: string) => void,
): (value: string, where: string) => string {
  const warned = new Set<string>();
  return (value, where) =>
    value.replace(VAR_REFERENCE, (_match, name: string) => {
      const found = Object.hasOwn(env, name) ? env[name] : undefined;
      if (found !== undefined) return found;
      if (!warned.has(name)) {
        warned.add(name);
        warn(`config: \${${name}} is not set (used in ${where}); using an empty value`);
      }
      return '';
    });
}
