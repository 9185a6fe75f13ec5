/** Shared by the terminal UI's component and flow tests (ink-testing-library). */

/** Keys as a terminal sends them. */
export const KEYS = { enter: '\r', escape: '\u001B', up: '\u001B[A', down: '\u001B[B', shiftTab: '\u001B[Z', ctrlC: '\u0003', backspace: '\u007F' };

/** Wait until `check` passes (a frame appeared, a promise settled), or fail with the last frame. */
export async function until(check: () => boolean, describe: () => string = () => '', timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out; last frame:\n${describe()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Ink handles a lone ESC after a short wait (it could start a sequence): give it that time. */
export const settle = (ms = 100): Promise<void> => new Promise((r) => setTimeout(r, ms));
