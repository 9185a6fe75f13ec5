/** Editing a multi-line text with a cursor, one key at a time (pure: tested without a terminal). */

export interface EditState {
  value: string;
  cursor: number;
}

export interface EditKey {
  leftArrow?: boolean;
  rightArrow?: boolean;
  upArrow?: boolean;
  downArrow?: boolean;
  home?: boolean;
  end?: boolean;
  backspace?: boolean;
  delete?: boolean;
  ctrl?: boolean;
  meta?: boolean;
  return?: boolean;
  tab?: boolean;
}

export function editText(state: EditState, input: string, key: EditKey = {}): EditState {
  const { value, cursor } = state;
  if (key.leftArrow) return { value, cursor: Math.max(0, cursor - 1) };
  if (key.rightArrow) return { value, cursor: Math.min(value.length, cursor + 1) };
  if (key.upArrow || key.downArrow) return moveLine(state, key.upArrow ? -1 : 1);
  if (key.home || (key.ctrl && input === 'a')) return { value, cursor: value.lastIndexOf('\n', cursor - 1) + 1 };
  if (key.end || (key.ctrl && input === 'e')) {
    const end = value.indexOf('\n', cursor);
    return { value, cursor: end === -1 ? value.length : end };
  }
  // Terminals send DEL (0x7f) for the Backspace key, which Ink reports as `delete`.
  if (key.backspace || key.delete) {
    if (cursor === 0) return state;
    return { value: value.slice(0, cursor - 1) + value.slice(cursor), cursor: cursor - 1 };
  }
  if (key.ctrl && input === 'u') {
    const start = value.lastIndexOf('\n', cursor - 1) + 1;
    return { value: value.slice(0, start) + value.slice(cursor), cursor: start };
  }
  if (key.ctrl && input === 'w') {
    const start = value.slice(0, cursor).replace(/\S+\s*$/, '').length;
    return { value: value.slice(0, start) + value.slice(cursor), cursor: start };
  }
  // Ctrl+J (a bare line feed) and Alt+Enter add a line.
  if ((key.ctrl && input === 'j') || (key.return && key.meta) || (!key.return && input === '\n')) return insert(state, '\n');
  if (key.ctrl || key.tab || key.return) return state;
  if (!input) return state;
  // A paste arrives as one string: keep its lines (CR LF / CR → LF), drop other control characters.
  const text = input.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, '');
  return insert(state, text);
}

function insert({ value, cursor }: EditState, text: string): EditState {
  return { value: value.slice(0, cursor) + text + value.slice(cursor), cursor: cursor + text.length };
}

function moveLine({ value, cursor }: EditState, delta: number): EditState {
  const lines = value.split('\n');
  const before = value.slice(0, cursor).split('\n');
  const row = before.length - 1;
  const col = before.at(-1)!.length;
  const target = row + delta;
  if (target < 0 || target >= lines.length) return { value, cursor };
  let offset = 0;
  for (let i = 0; i < target; i++) offset += lines[i]!.length + 1;
  return { value, cursor: offset + Math.min(col, lines[target]!.length) };
}
