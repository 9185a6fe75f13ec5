/**
 * The process the sandbox's watchdog starts once MewCode has died with a sandboxed command in
 * flight (the build emits it as `dist/mewcode-sweep-recovery.js`; watchdog.ts's WATCHDOG_SCRIPT).
 * It sweeps the records of dead processes in the directory it is given (sweep-recovery.ts) right
 * away, before the user's next `git status` there, and leaves what it set aside as notices that
 * the next MewCode start says. Argument: the records directory.
 */
import { noticeWriter, recoverSweeps } from './sweep-recovery.js';

const dir = process.argv[2];
if (dir) await recoverSweeps(dir, noticeWriter(dir), { showNotices: false });
