/**
 * `--debug`, or `plugins` or `all` in MEWCODE_DEBUG (a comma-separated list, like the other
 * MEWCODE_DEBUG switches): a plugin's failure, and a tool's throw, is shown with its stack, so its
 * author sees the file and line. Without it the user sees one line naming the plugin, once (and
 * nothing for a tool's throw, which the model already has as the call's result). bin/mewcode.js
 * turns source maps on by this same rule, so every stack printed names `.ts` files.
 */
export function pluginDebugEnabled(env: Readonly<Record<string, string | undefined>>, flag: boolean | undefined): boolean {
  if (flag === true) return true;
  return (env.MEWCODE_DEBUG ?? '').split(/[\s,]+/).some((word) => word === 'plugins' || word === 'all');
}

/**
 * The stack of a failure's cause (what the plugin threw), or undefined when there is none, or when
 * reading it throws (a plugin's `stack` getter, a proxy): a failure's report must not fail.
 */
export function causeStack(error: unknown): string | undefined {
  try {
    const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
    if (!(cause instanceof Error)) return undefined;
    const stack: unknown = cause.stack;
    return typeof stack === 'string' ? stack : undefined;
  } catch {
    return undefined;
  }
}
