/**
 * The dialogs that take the keyboard: approval of a tool call (A9), workspace trust (A12) and
 * the pickers (/resume, /model, /mode, /permissions). While one is open the input is inactive,
 * so no key reaches the prompt or changes the mode.
 */
import { terminalSafe } from './terminal-safe.js';
import { Box, Text, useInput } from 'ink';
import { useRef, useState } from 'react';
import { answerCanBeRemembered, type ApprovalChoice, type ApprovalRequest } from '../../../types/permissions.js';
import type { PendingTrust } from '../../../types/trust.js';
import type { Picker } from '../model/entries.js';
import { callDiff } from './tool-text.js';
import { DiffView } from './tool-view.js';

export const APPROVAL_CHOICES: readonly { choice: ApprovalChoice; label: string }[] = [
  { choice: 'allow_once', label: 'Yes, allow once' },
  { choice: 'allow_session', label: 'Yes, allow for this session' },
  { choice: 'allow_always', label: 'Yes, always allow (saved in ~/.mewcode for this project)' },
  { choice: 'deny', label: 'No, deny (Esc)' },
];

/** Lines of the proposed change shown in the approval dialog. */
const PREVIEW_LINES = 8;

function describeTarget(request: ApprovalRequest): string {
  const t = request.target;
  return terminalSafe(t.kind === 'path' ? t.path : t.kind === 'command' ? t.command : '(no target)');
}

/**
 * A dialog ignores choosing keys (Enter, digits, arrows) for this long after it opens: keys typed
 * ahead for the prompt, or a paste that arrives as the dialog appears, must never answer it. Esc
 * (deny / don't trust) works at once: refusing is always safe.
 */
export const ARM_MS = 300;

/** Arrows or 1–4 move / choose, Enter confirms, Esc denies. */
function useChoice(count: number, onChoose: (index: number) => void, onEscape: () => void, armMs: number): number {
  const [selected, setSelected] = useState(0);
  const latest = useRef(0); // Enter may come before the render of the last arrow key
  const openedAt = useRef(Date.now());
  const answered = useRef(false); // one answer per dialog, even if keys come before the re-render
  const move = (index: number): void => {
    latest.current = index;
    setSelected(index);
  };
  useInput((input, key) => {
    if (answered.current) return;
    if (key.escape) {
      answered.current = true;
      return onEscape();
    }
    if (Date.now() - openedAt.current < armMs) return;
    if (key.upArrow) return move((latest.current + count - 1) % count);
    if (key.downArrow || key.tab) return move((latest.current + 1) % count);
    const digit = key.return ? latest.current + 1 : Number(input);
    if (input !== '' || key.return) {
      if (Number.isInteger(digit) && digit >= 1 && digit <= count) {
        answered.current = true;
        onChoose(digit - 1);
      }
    }
  });
  return selected;
}

function Choices({ labels, selected }: { labels: readonly string[]; selected: number }) {
  return (
    <Box flexDirection="column" marginTop={1}>
      {labels.map((label, i) => (
        <Text key={label} {...(i === selected ? { color: 'cyan', bold: true } : {})}>
          {`${i === selected ? '›' : ' '} ${i + 1}. ${label}`}
        </Text>
      ))}
    </Box>
  );
}

/**
 * What the dialog offers: a question no allow rule lifts (a settings file's ask, a required
 * policy plugin's, a hook's) is answered once at a time (answerCanBeRemembered).
 */
export function approvalChoices(request: Pick<ApprovalRequest, 'allowRuleLifts'>): readonly { choice: ApprovalChoice; label: string }[] {
  return answerCanBeRemembered(request) ? APPROVAL_CHOICES : APPROVAL_CHOICES.filter((c) => c.choice === 'allow_once' || c.choice === 'deny');
}

export function ApprovalDialog({ request, onAnswer, armMs = ARM_MS }: { request: ApprovalRequest; onAnswer(choice: ApprovalChoice): void; armMs?: number }) {
  const choices = approvalChoices(request);
  const selected = useChoice(choices.length, (i) => onAnswer(choices[i]!.choice), () => onAnswer('deny'), armMs);
  const preview = request.tool ? callDiff({ id: request.toolCallId, name: request.toolName, input: JSON.stringify(request.input) }, PREVIEW_LINES) : undefined;
  const who = request.agentId && request.agentId !== 'main' ? ` (sub-agent ${request.agentId})` : '';
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text bold color="yellow">{terminalSafe(`Allow ${request.toolName}${who}?`)}</Text>
      <Text>
        <Text dimColor>{'target  '}</Text>
        {describeTarget(request)}
      </Text>
      <Text>
        <Text dimColor>{'reason  '}</Text>
        {terminalSafe(request.verdict.reason ?? request.verdict.layer)}
      </Text>
      {preview ? (
        <Box marginTop={1}>
          <DiffView diff={preview} />
        </Box>
      ) : null}
      <Choices labels={choices.map((c) => c.label)} selected={selected} />
      <Text dimColor>{`↑/↓ or 1–${choices.length}, Enter to choose, Esc to deny. The agent waits for your answer.`}</Text>
    </Box>
  );
}

/** Settings listed in the trust dialog before the rest are counted (it must fit the screen). */
const TRUST_ROWS = 12;

export function TrustDialog({ pending, onAnswer, armMs = ARM_MS }: { pending: PendingTrust; onAnswer(trusted: boolean): void; armMs?: number }) {
  const selected = useChoice(2, (i) => onAnswer(i === 0), () => onAnswer(false), armMs);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text bold color="yellow">
        {pending.changed ? 'This project’s settings changed since you trusted it.' : 'Do you trust the files in this project?'}
      </Text>
      <Text>{terminalSafe(pending.projectRoot)}</Text>
      <Text>If you trust it, MewCode will apply these project settings, which can run code or send data:</Text>
      <Box flexDirection="column" marginTop={1}>
        {pending.settings.slice(0, TRUST_ROWS).map((s) => (
          <Text key={`${s.file}:${s.key}`}>
            {'  '}
            <Text color="cyan">{terminalSafe(`${s.file}: ${s.key}`)}</Text>
            {terminalSafe(` ${s.summary}`)}
          </Text>
        ))}
      </Box>
      {pending.settings.length > TRUST_ROWS ? <Text dimColor>{`  … and ${pending.settings.length - TRUST_ROWS} more settings`}</Text> : null}
      <Choices labels={['Yes, trust this project', 'No, continue without these settings (Esc)']} selected={selected} />
      <Text dimColor>--trust-project skips this question for one run.</Text>
    </Box>
  );
}

/** Items shown at once in a picker. */
const PICKER_ROWS = 10;

export function PickerView({ picker }: { picker: Picker }) {
  // Keys may come faster than renders (type, ↓, Enter): the handler works on refs.
  const [, redraw] = useState(0);
  const query = useRef('');
  const selected = useRef(0);
  const matching = (): Picker['items'] => {
    const q = query.current.toLowerCase();
    return picker.items.filter((i) => !q || `${i.label} ${i.detail ?? ''} ${i.value}`.toLowerCase().includes(q));
  };
  const set = (q: string, index: number): void => {
    query.current = q;
    selected.current = index;
    redraw((n) => n + 1);
  };
  useInput((input, key) => {
    const items = matching();
    if (key.escape) return picker.resolve(undefined);
    if (key.return) return picker.resolve(items[selected.current]?.value);
    if (key.upArrow) return set(query.current, Math.max(0, selected.current - 1));
    if (key.downArrow) return set(query.current, Math.min(items.length - 1, selected.current + 1));
    if (key.backspace || key.delete) return set(query.current.slice(0, -1), 0);
    if (input && !key.ctrl && !key.meta) set(query.current + input.replace(/[\u0000-\u001F\u007F]/g, ''), 0);
  });
  const items = matching();
  const start = Math.max(0, Math.min(selected.current - PICKER_ROWS + 1, items.length - PICKER_ROWS));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold>{terminalSafe(picker.title)}</Text>
      <Text>
        <Text dimColor>search: </Text>
        {query.current}
        <Text inverse> </Text>
      </Text>
      {items.length === 0 ? <Text dimColor>nothing matches</Text> : null}
      {items.slice(start, start + PICKER_ROWS).map((item, i) => (
        <Text key={item.value} {...(start + i === selected.current ? { color: 'cyan', bold: true } : {})} wrap="truncate-end">
          {`${start + i === selected.current ? '›' : ' '} ${terminalSafe(item.label)}`}
          {item.detail ? <Text dimColor>{terminalSafe(`  ${item.detail}`)}</Text> : null}
        </Text>
      ))}
      <Text dimColor>Type to search, ↑/↓ to move, Enter to choose, Esc to cancel.</Text>
    </Box>
  );
}
