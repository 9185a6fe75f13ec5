/**
 * The file tools' field names. They take Claude Code's (`file_path`, `offset`, `limit`, `content`,
 * `old_string`, `new_string`, `replace_all`), which models are trained on; `path`, their earlier
 * name here, is still accepted. The kernel checks a call's input before hooks, permission layers
 * and the audit log see it, and that check renames the old field (`canonicalFileFields`), so all
 * of them read one name. Code that reads a stored call (history, a UI) uses `filePathOf`.
 */
import type { ToolInput, ToolInputCheck } from '../../types/tools.js';

/** Old field name → the name the tools take. Frozen: every file tool's input check renames by it. */
export const FILE_FIELD_ALIASES: Readonly<Record<string, string>> = Object.freeze({ path: 'file_path' });

/** The input with every old field name replaced by its current one; an input error when both disagree. */
export function canonicalFileFields(input: ToolInput): ToolInputCheck {
  let out: ToolInput | undefined;
  for (const [old, current] of Object.entries(FILE_FIELD_ALIASES)) {
    if (!Object.hasOwn(input, old)) continue;
    if (Object.hasOwn(input, current) && input[current] !== input[old]) {
      return { ok: false, error: `"${current}" and "${old}" (its older name) give different values; send only "${current}"` };
    }
    out ??= { ...input };
    out[current] = input[old];
    delete out[old];
  }
  return { ok: true, input: out ?? input };
}

/** The file a file tool's call names, under either field name; undefined when it names none. */
export function filePathOf(input: Readonly<Record<string, unknown>> | undefined): string | undefined {
  if (!input) return undefined;
  for (const field of ['file_path', ...Object.keys(FILE_FIELD_ALIASES)]) {
    const value = input[field];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/**
 * The kernel's input check for a file tool: old names renamed, then the tool's own field check,
 * whose error names the field (`"file_path" is required…`), so a wrong or missing field is an
 * input error the model can fix rather than a permission denial.
 */
export function fileToolInputCheck(check: (input: ToolInput) => { ok: true } | { ok: false; error: string }): (input: ToolInput) => ToolInputCheck {
  return (input) => {
    const renamed = canonicalFileFields(input);
    if (!renamed.ok) return renamed;
    const checked = check(renamed.input);
    return checked.ok ? renamed : { ok: false, error: checked.error };
  };
}
