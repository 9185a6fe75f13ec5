/** provider · model · mode · sandbox · context % of the active window · session tokens. */
import { terminalSafe } from './terminal-safe.js';
import { Box, Text } from 'ink';
import type { StatusInfo } from '../model/entries.js';

/** 950, 12.3k, 200k, 1.2M: short, with no trailing `.0`. */
export function formatTokens(n: number): string {
  const short = (value: number, unit: string): string => `${Number(value.toFixed(1))}${unit}`;
  return n >= 1_000_000 ? short(n / 1_000_000, 'M') : n >= 1000 ? short(n / 1000, 'k') : String(n);
}

export function contextPercent(status: StatusInfo): number {
  return status.contextWindow > 0 ? Math.min(100, Math.round((100 * status.contextTokens) / status.contextWindow)) : 0;
}

const MODE_COLOURS: Record<string, string> = { default: 'gray', acceptEdits: 'green', plan: 'blue', bypassPermissions: 'red' };

export function StatusLine({ status, hint }: { status: StatusInfo; hint: string | undefined }) {
  const percent = contextPercent(status);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text dimColor>{terminalSafe(`${status.provider}/${status.model} · `)}</Text>
        <Text color={MODE_COLOURS[status.mode] ?? 'gray'}>{terminalSafe(`mode: ${status.mode}`)}</Text>
        <Text dimColor>{terminalSafe(` · sandbox: ${status.sandbox} · `)}</Text>
        <Text {...(percent >= 80 ? { color: 'red' } : percent >= 60 ? { color: 'yellow' } : { dimColor: true })}>{`context ${percent}%`}</Text>
        <Text dimColor>{` of ${formatTokens(status.contextWindow)} · ${formatTokens(status.sessionTokens)} tokens`}</Text>
      </Text>
      {hint ? <Text color="yellow">{terminalSafe(hint)}</Text> : null}
    </Box>
  );
}
