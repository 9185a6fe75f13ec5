/**
 * Files of a git directory that shell prompts print as they are. A git-aware prompt reads them at
 * every prompt in the repository: git's own `__git_ps1` (git-sh-prompt) prints HEAD's branch, a
 * rebase's `head-name`, and its step counter (`rebase-merge/msgnum` and `end`, `rebase-apply/next`
 * and `last`) unfiltered; zsh's vcs_info prints more of a rebase's, an am's, a merge's and a
 * cherry-pick's state (`done` and todo lines, `msg-clean`, `final-commit`, a patch's subject,
 * `ORIG_HEAD`, `MERGE_MSG`'s first line, `CHERRY_PICK_HEAD`, `sequencer/todo`), from the git
 * directory and from a `.dotest` beside it. A command can write them all (`.git` stays writable
 * for git's work), so terminal control sequences there reach the user's terminal at the next `cd`
 * (OSC 52 sets the clipboard to a command a paste then runs). The sweep sets aside one made or
 * changed during the command that holds a control character (git-sweep.ts).
 */

/** Files directly in a git directory that prompts read; and `gc.log`, which git prints as it is (C1 controls included) at the next command that would run gc. */
export const PRINTED_FILES: readonly string[] = ['HEAD', 'ORIG_HEAD', 'MERGE_HEAD', 'MERGE_MSG', 'SQUASH_MSG', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'REBASE_HEAD', 'BISECT_LOG', 'BISECT_START', 'gc.log'];

/**
 * Directories of operations in progress, each file of which is judged (their files change from
 * one git version to the next; no prompt needs a control character in any of them). `../.dotest`
 * is where an old `git am` kept its state, beside the git directory, and vcs_info still reads it.
 */
export const PRINTED_DIRS: readonly string[] = ['rebase-merge', 'rebase-apply', 'sequencer', 'rebase', '.dotest-merge', '../.dotest'];

/**
 * C0 controls but tab and line ends, DEL, and C1 controls (U+0080–U+009F), which terminals take
 * as ESC sequences (U+009B is CSI, U+009D is OSC).
 */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Whether `bytes` hold a terminal control character. Text that is UTF-8 is read as UTF-8: its
 * continuation bytes (0x80–0xBF) are no controls, but a C1 code point encoded in it is. Bytes that
 * are not UTF-8 are read one by one, as a terminal that is not in UTF-8 mode reads them: a byte of
 * 0x80–0x9F is then a C1 control itself.
 */
export function hasControl(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  }
  return CONTROL.test(text);
}
