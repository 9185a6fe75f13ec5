/**
 * The screen: finished entries through <Static> (written once, then part of the terminal's
 * scrollback), below them the live region, the dialog or input, and the status line.
 */
import { Box, Static, Text, useInput, useStdout } from 'ink';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { TuiController } from '../model/controller.js';
import { ApprovalDialog, PickerView, TrustDialog } from './dialogs.js';
import { EntryView } from './entry-view.js';
import { InputBox } from './input-box.js';
import { LiveRegion } from './live-region.js';
import { StatusLine } from './status-line.js';

/** A second Ctrl+C within this time exits. */
export const EXIT_WINDOW_MS = 2000;
/** Rows kept free below the live region for the input, the status line and a margin. */
const RESERVED_ROWS = 8;
/** Rows a dialog may take (the approval dialog with its 8-line preview is the tallest). */
const DIALOG_ROWS = 22;
/** Redraw rate of timers (elapsed times, countdowns, spinners) while something runs. */
const TICK_MS = 250;

function useNow(active: boolean, now: () => number): number {
  const [value, setValue] = useState(now());
  useEffect(() => {
    if (!active) return;
    setValue(now());
    const timer = setInterval(() => setValue(now()), TICK_MS);
    return () => clearInterval(timer);
  }, [active, now]);
  return value;
}

export function App({ controller }: { controller: TuiController }) {
  const { store } = controller;
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const { stdout } = useStdout();
  const width = Math.max(20, (stdout.columns || 80) - 2);
  const rows = stdout.rows || 24;
  const now = useNow(state.busy || state.progress.length > 0, store.now);
  const [history, setHistory] = useState<string[]>([]);
  const lastCtrlC = useRef(0);
  const approval = state.approvals[0];
  const dialogOpen = approval !== undefined || state.trust !== undefined || state.picker !== undefined;

  useInput((input, key) => {
    if (key.ctrl && input === 'c') {
      if (controller.cancel()) {
        lastCtrlC.current = Date.now();
        store.setHint('Cancelling the run… (Ctrl+C again to exit)');
        return;
      }
      if (state.picker) return state.picker.resolve(undefined);
      if (Date.now() - lastCtrlC.current < EXIT_WINDOW_MS) return controller.exit(0);
      lastCtrlC.current = Date.now();
      store.setHint('Press Ctrl+C again to exit');
      return;
    }
    if (dialogOpen) return; // the dialog has the keyboard
    if (key.escape && state.busy) {
      controller.cancel();
      store.setHint('Interrupted.');
      return;
    }
    if (key.tab && key.shift) {
      if (!controller.cycleMode()) store.setHint('The mode changes between runs: wait for this one to end, or cancel it (Esc).');
      else store.setHint(undefined);
      return;
    }
    if (key.ctrl && input === 't') store.toggleThinking();
  });

  // A hint is for the moment: it goes away after the exit window.
  useEffect(() => {
    if (!state.hint) return;
    const timer = setTimeout(() => store.setHint(undefined), EXIT_WINDOW_MS);
    return () => clearTimeout(timer);
  }, [state.hint, store]);

  // Rendered again only when entries are added: any update of <Static> makes Ink draw at once,
  // bypassing its frame-rate limit, so a streamed token must not touch it.
  const scrollback = useMemo(
    () => (
      <Static items={state.entries as never[]}>
        {(entry) => <EntryView key={(entry as { id: number }).id} entry={entry} width={width} thinkingExpanded={state.thinkingExpanded} />}
      </Static>
    ),
    [state.entries, width, state.thinkingExpanded],
  );

  const submit = (text: string): boolean => {
    if (store.snapshot.busy) {
      store.setHint('A run is in progress: Enter sends once it ends (Esc interrupts it).');
      return false;
    }
    setHistory((h) => (h.at(-1) === text ? h : [...h, text]));
    lastCtrlC.current = 0; // a Ctrl+C that cancelled the last run does not count towards exiting
    void controller.submit(text);
    return true;
  };

  return (
    <Box flexDirection="column">
      {scrollback}
      <LiveRegion state={state} now={now} width={width} maxLines={Math.max(4, rows - RESERVED_ROWS - (dialogOpen ? DIALOG_ROWS : 0))} />
      {state.trust ? (
        <TrustDialog pending={state.trust.pending} onAnswer={state.trust.resolve} />
      ) : approval ? (
        <ApprovalDialog key={approval.id} request={approval.request} onAnswer={approval.resolve} />
      ) : state.picker ? (
        <PickerView picker={state.picker} />
      ) : null}
      {state.busy && !dialogOpen && state.running.length === 0 ? <Text dimColor>{`  working… ${Math.max(0, Math.floor((now - state.busySince) / 1000))}s (Esc to interrupt)`}</Text> : null}
      <Box marginTop={1} flexDirection="column">
        {dialogOpen ? null : <InputBox commands={() => controller.commands()} history={history} onSubmit={submit} active={!dialogOpen} placeholder={state.busy ? ' a run is in progress' : ' type a prompt, / for commands'} />}
        <StatusLine status={state.status} hint={state.hint} />
      </Box>
    </Box>
  );
}
