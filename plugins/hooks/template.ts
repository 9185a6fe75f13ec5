/** Reading a hook payload by dot path, and the field-only body templates of http hooks. */

/** A dot path into the payload; undefined when any part is missing (absent, not ""). */
export function fieldAt(payload: unknown, dotted: string): string | undefined {
  let current: unknown = payload;
  for (const part of dotted.split('.')) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  if (current === undefined || current === null) return undefined;
  return typeof current === 'string' ? current : typeof current === 'object' ? JSON.stringify(current) : String(current);
}

/** `{{.field.path}}` placeholders only: no functions, no code. */
export function renderTemplate(template: string, payload: unknown): string {
  return template.replace(/\{\{\s*\.([A-Za-z0-9_.]+)\s*\}\}/g, (_match, field: string) => fieldAt(payload, field) ?? '');
}

