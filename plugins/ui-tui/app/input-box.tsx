/**
 * The prompt editor: multi-line (Ctrl+J, Alt+Enter, or `\` then Enter add a line), a cursor
 * moved with ←/→, ↑/↓ through history (when on the first/last line), pastes of any size kept as
 * text (never submitted by their newlines), and slash-command completion (Tab).
 */
import { Box, Text, useInput } from 'ink';
import { useState } from 'react';
import type { CommandInfo } from '../model/controller.js';
import { editText, type EditState } from './text-edit.js';

/** Completion rows shown under the input. */
const MENU_ROWS = 8;

export interface InputBoxProps {
  commands: () => CommandInfo[];
  history: string[];
  onSubmit(text: string): void;
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
  const [state, setState] = useState<EditState>({ value: '', cursor: 0 });
  const [historyIndex, setHistoryIndex] = useState<number | undefined>(undefined);
  const [selected, setSelected] = useState(0);
  const matches = matchingCommands(state.value, commands());

  useInput(
    (input, key) => {
      if (key.escape || (key.ctrl && input === 'c') || (key.tab && key.shift) || (key.ctrl && input === 't')) return; // the app's keys
      if (matches.length > 0 && (key.upArrow || key.downArrow)) {
        setSelected((s) => (s + (key.downArrow ? 1 : matches.length - 1)) % matches.length);
        return;
      }
      if (matches.length > 0 && key.tab) {
        const name = `/${matches[Math.min(selected, matches.length - 1)]!.name} `;
        setState({ value: name, cursor: name.length });
        setSelected(0);
        return;
      }
      // Typed text and Enter can arrive in one chunk (a fast typist, tmux send-keys): the text,
      // then a submit. A paste with several lines stays text.
      const typedThenEnter = input.length > 1 && input.endsWith('\r') && !/[\r\n]/.test(input.slice(0, -1));
      const current = typedThenEnter ? editText(state, input.slice(0, -1)) : state;
      if ((key.return && !key.meta) || typedThenEnter) {
        if (current.value.endsWith('\\') && current.cursor === current.value.length) {
          setState(editText({ value: current.value.slice(0, -1), cursor: current.cursor - 1 }, '\n'));
          return;
        }
        let text = current.value;
        const found = matchingCommands(text, commands());
        // Enter on a partly typed command picks the highlighted completion.
        if (found.length > 0 && !found.some((m) => `/${m.name}` === text)) text = `/${found[Math.min(selected, found.length - 1)]!.name}`;
        if (!text.trim()) return;
        setState({ value: '', cursor: 0 });
        setHistoryIndex(undefined);
        setSelected(0);
        onSubmit(text);
        return;
      }
      const lines = state.value.split('\n');
      const row = state.value.slice(0, state.cursor).split('\n').length - 1;
      if ((key.upArrow && row === 0) || (key.downArrow && row === lines.length - 1)) {
        if (history.length === 0) return;
        const next = key.upArrow ? (historyIndex === undefined ? history.length - 1 : Math.max(0, historyIndex - 1)) : historyIndex === undefined ? undefined : historyIndex + 1;
        if (next === undefined || next >= history.length) {
          setHistoryIndex(undefined);
          setState({ value: '', cursor: 0 });
        } else {
          setHistoryIndex(next);
          setState({ value: history[next]!, cursor: history[next]!.length });
        }
        return;
      }
      setState((s) => editText(s, input, key));
      setSelected(0);
    },
    { isActive: active },
  );

  const before = state.value.slice(0, state.cursor);
  const at = state.value.slice(state.cursor, state.cursor + 1);
  const after = state.value.slice(state.cursor + 1);
  const lineCount = state.value.split('\n').length;
  return (
    <Box flexDirection="column">
      <Box borderStyle="round" borderColor={active ? 'cyan' : 'gray'} paddingX={1}>
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
          {matches.slice(0, MENU_ROWS).map((c, i) => (
            <Text key={c.name} {...(i === selected ? { color: 'cyan' } : { dimColor: true })}>
              {`${i === selected ? '›' : ' '} /${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ''}  ${c.description}`}
            </Text>
          ))}
          {matches.length > MENU_ROWS ? <Text dimColor>{`  … ${matches.length - MENU_ROWS} more`}</Text> : null}
        </Box>
      ) : null}
    </Box>
  );
}
