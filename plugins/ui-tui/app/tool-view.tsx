/** A tool call: running (spinner, elapsed time, output tail) or finished (status, time, result or diff). */
import { terminalSafe } from './terminal-safe.js';
import { Box, Text } from 'ink';
import type { ToolCall, ToolResult } from '../../../types/messages.js';
import type { RunningTool } from '../model/entries.js';
import { callDiff, describeCall, formatElapsed, headLines, type DiffLine } from './tool-text.js';
import { lastLines } from './markdown.js';

/** Lines of a finished call's result kept in the scrollback. */
export const RESULT_LINES = 6;
/** Lines of a diff kept in the scrollback. */
export const DIFF_LINES = 40;
/** Lines of a running call's output tail. */
export const TAIL_LINES = 5;

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export function RunningToolView({ tool, now }: { tool: RunningTool; now: number }) {
  const elapsed = now - tool.startedAt;
  const frame = SPINNER[Math.floor(elapsed / 250) % SPINNER.length];
  const progress = tool.progress?.total ? ` ${Math.round((100 * tool.progress.progress) / tool.progress.total)}%` : '';
  return (
    <Box flexDirection="column">
      <Text>
        <Text color="yellow">{`${frame} `}</Text>
        <Text bold>{describeCall(tool.call)}</Text>
        <Text dimColor>{` running ${formatElapsed(elapsed)}${progress}`}</Text>
      </Text>
      {tool.tail ? (
        <Box paddingLeft={2}>
          <Text dimColor wrap="truncate-end">
            {lastLines(terminalSafe(tool.tail).replace(/\n+$/, ''), TAIL_LINES)}
          </Text>
        </Box>
      ) : null}
    </Box>
  );
}

/** A change as coloured lines: `-` red, `+` green, context dim, then how many lines were left out. */
export function DiffView({ diff }: { diff: { lines: DiffLine[]; more: number } }) {
  return (
    <Box flexDirection="column">
      {diff.lines.map((line, i) => (
        <Text key={i} {...(line.sign === '+' ? { color: 'green' } : line.sign === '-' ? { color: 'red' } : { dimColor: true })}>
          {`${line.sign} ${line.text}`}
        </Text>
      ))}
      {diff.more > 0 ? <Text dimColor>{`  … ${diff.more} more lines`}</Text> : null}
    </Box>
  );
}

export function FinishedToolView({ call, result, durationMs }: { call: ToolCall; result: ToolResult; durationMs: number }) {
  const diff = result.isError ? undefined : callDiff(call, DIFF_LINES);
  // A to-do list is the point of its call: shown whole (todo_write caps it at 100 items).
  const head = headLines(result.content, call.name === 'todo_write' && !result.isError ? Number.MAX_SAFE_INTEGER : RESULT_LINES);
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text>
        <Text color={result.isError ? 'red' : 'green'}>{result.isError ? '✗ ' : '✓ '}</Text>
        <Text bold>{describeCall(call)}</Text>
        <Text dimColor>{` ${formatElapsed(durationMs)}`}</Text>
      </Text>
      {diff ? (
        <Box paddingLeft={2}>
          <DiffView diff={diff} />
        </Box>
      ) : null}
      {!diff || result.isError ? (
        <Box paddingLeft={2} flexDirection="column">
          <Text {...(result.isError ? { color: 'red' } : { dimColor: true })}>{head.text}</Text>
          {head.more > 0 ? <Text dimColor>{`… ${head.more} more lines`}</Text> : null}
        </Box>
      ) : (
        <Box paddingLeft={2}>
          <Text dimColor>{headLines(result.content, 1).text}</Text>
        </Box>
      )}
    </Box>
  );
}
