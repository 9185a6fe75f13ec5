/**
 * The prompt editor: multi-line (Ctrl+J, Alt+Enter, or `\` then Enter add a line), a cursor
 * moved with ←/→, ↑/↓ through history (when on the first/last line), pastes of any size kept as
 * text (never submitted by their newlines), and slash-command completion (Tab).
 */
import { Box, Text, useInput } from 'ink';
import { useRef, useState } from 'react';
import type { CommandInfo } from '../model/controller.js';
import { editText, type EditState } from './text-edit.js';
import { terminalSafe } from './terminal-safe.js';

/** Completion rows shown under the input. */
const MENU_ROWS = 8;
/** Lines of a long input shown at once (around the cursor): the input must never fill the screen. */
export const INPUT_ROWS = 8;

/** The lines of a long text around the cursor, with the cursor moved into that window. */
export function visibleWindow(state: EditState, rows: number): EditState {
  const lines = state.value.split('\n');
  if (lines.length <= rows) return state;
  const row = state.value.slice(0, state.cursor).split('\n').length - 1;
  const first = Math.max(0, Math.min(row - rows + 1, lines.length - rows));
  const offset = lines.slice(0, first).reduce((n, l) => n + l.length + 1, 0);
  return { value: lines.slice(first, first + rows).join('\n'), cursor: state.cursor - offset };
}

export interface InputBoxProps {
  commands: () => CommandInfo[];
  history: string[];
  /** False when the text was not taken (a run is in progress): it stays in the input. */
  onSubmit(text: string): boolean;
  /** Keys the input does not use (Esc, Ctrl+C, Shift+Tab…) go to the app. */
  active: boolean;
  placeholder?: string;
}

export function matchingCommands(value: string, commands: CommandInfo[]): CommandInfo[] {
  if (!value.startsWith('/') || /\s/.test(value)) return [];
  const word = value.slice(1).toLowerCase();
  return commands.filter((c) => c.name.toLowerCase().startsWith(word));
}

export function InputBox({ commands, history, onSubmit, active, placeholder }: InputBoxProps) {
  // Keys can arrive faster than React renders (typed text, then Enter, in two chunks): the
  // handler reads and writes the latest values through refs, never a stale render's copy.
  const [, redraw] = useState(0);
  const edit = useRef<EditState>({ value: '', cursor: 0 });
  const historyIndex = useRef<number | undefined>(undefined);
  const selectedRef = useRef(0);
  const update = (next: EditState, selected = 0): void => {
    edit.current = next;
    selectedRef.current = selected;
    redraw((n) => n + 1);
  };
  const state = edit.current;
  const selected = selectedRef.current;
  const matches = matchingCommands(state.value, commands());

  useInput(
    (input, key) => {
      if (key.escape || (key.ctrl && input === 'c') || (key.tab && key.shift) || (key.ctrl && input === 't')) return; // the app's keys
      const now = edit.current;
      const found = matchingCommands(now.value, commands());
      const pick = found[Math.min(selectedRef.current, found.length - 1)];
      if (found.length > 0 && (key.upArrow || key.downArrow)) {
        update(now, (selectedRef.current + (key.downArrow ? 1 : found.length - 1)) % found.length);
        return;
      }
      if (pick && key.tab) {
        const name = `/${pick.name} `;
        update({ value: name, cursor: name.length });
        return;
      }
      // Typed text and Enter can arrive in one chunk (a fast typist, tmux send-keys): the text,
      // then a submit. A paste with several lines stays text.
      const typedThenEnter = input.length > 1 && input.endsWith('\r') && !/[\r\n]/.test(input.slice(0, -1));
      const current = typedThenEnter ? editText(now, input.slice(0, -1)) : now;
      if ((key.return && !key.meta) || typedThenEnter) {
        if (current.value.endsWith('\\') && current.cursor === current.value.length) {
          update(editText({ value: current.value.slice(0, -1), cursor: current.cursor - 1 }, '\n'));
          return;
        }
        let text = current.value;
        const completions = matchingCommands(text, commands());
        // Enter on a partly typed command picks the highlighted completion.
        if (completions.length > 0 && !completions.some((m) => `/${m.name}` === text)) text = `/${completions[Math.min(selectedRef.current, completions.length - 1)]!.name}`;
        if (!text.trim()) return;
        if (!onSubmit(text.trim())) return update(current);
        historyIndex.current = undefined;
        update({ value: '', cursor: 0 });
        return;
      }
      const lines = now.value.split('\n');
      const row = now.value.slice(0, now.cursor).split('\n').length - 1;
      if ((key.upArrow && row === 0) || (key.downArrow && row === lines.length - 1)) {
        if (history.length === 0) return;
        const at = historyIndex.current;
        const next = key.upArrow ? (at === undefined ? history.length - 1 : Math.max(0, at - 1)) : at === undefined ? undefined : at + 1;
        if (next === undefined || next >= history.length) {
          historyIndex.current = undefined;
          update({ value: '', cursor: 0 });
        } else {
          historyIndex.current = next;
          update({ value: history[next]!, cursor: history[next]!.length });
        }
        return;
      }
      update(editText(now, input, key));
    },
    { isActive: active },
  );

  const menuStart = Math.max(0, Math.min(selected - MENU_ROWS + 1, matches.length - MENU_ROWS));
  const lineCount = state.value.split('\n').length;
  const shown = visibleWindow(state, INPUT_ROWS);
  const before = shown.value.slice(0, shown.cursor);
  const at = shown.value.slice(shown.cursor, shown.cursor + 1);
  const after = shown.value.slice(shown.cursor + 1);
  return (
    <Box flexDirection="column">
      {/* One rule above, no box: every frame rewrites this region, and each border cell is 3 bytes. */}
      <Box borderStyle="single" borderLeft={false} borderRight={false} borderBottom={false} borderColor={active ? 'cyan' : 'gray'} borderDimColor>
        <Text color="cyan">{'> '}</Text>
        <Box flexGrow={1}>
          {state.value === '' ? (
            <Text>
              <Text inverse> </Text>
              <Text dimColor>{placeholder ?? ''}</Text>
            </Text>
          ) : (
            <Text>
              {before}
              <Text inverse>{at === '\n' || at === '' ? ' ' : at}</Text>
              {at === '\n' ? '\n' : ''}
              {after}
            </Text>
          )}
        </Box>
        {lineCount > 1 ? <Text dimColor>{` ${lineCount} lines`}</Text> : null}
      </Box>
      {matches.length > 0 ? (
        <Box flexDirection="column" paddingX={2}>
          {matches.slice(menuStart, menuStart + MENU_ROWS).map((c, i) => (
            <Text key={c.name} {...(menuStart + i === selected ? { color: 'cyan' } : { dimColor: true })}>
              {/* Names, hints and descriptions come from skill and command files: terminal-safe. */}
              {terminalSafe(`${menuStart + i === selected ? '›' : ' '} /${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ''}  ${c.description}`)}
            </Text>
          ))}
          {matches.length > MENU_ROWS ? <Text dimColor>{`  ${matches.length} commands, ↑/↓ to see all`}</Text> : null}
        </Box>
      ) : null}
    </Box>
  );
}
