/** The texts read_file returns. Each error says what to do next (K1); each cut says how to get the rest (T8). */
import { PACKAGE_DIRECTORIES } from '../../config/project-file.js';
import type { WindowStop } from './read-window.js';

export function continuationMarker(stop: WindowStop, lastShownLine: number, maxBytes: number): string | undefined {
  const next = lastShownLine + 1;
  const cap = formatBytes(maxBytes);
  switch (stop) {
    case 'eof':
      return undefined;
    case 'lines':
      return `[… more lines follow. To read on, call read_file with offset=${next}.]`;
    case 'bytes':
      return `[… stopped at the ${cap} per-call limit; more lines follow. To read on, call read_file with offset=${next}.]`;
    case 'long-line':
      return `[… line ${lastShownLine} is longer than the ${cap} per-call limit; only its start is shown. To read the lines after it, call read_file with offset=${next}.]`;
  }
}

/**
 * A window that is one line longer than the byte cap, whose shown start was cut at the character
 * limit too: one note. The two separate ones said "only its start is shown" and "cannot show the
 * rest", which read as two different cuts of the same line.
 */
export function longLineNote(line: number, maxChars: number, marker: string): string {
  return `[Line ${line} is longer than ${maxChars} characters and was cut; read_file cannot show the rest of it. Its cut ends in "${marker}"; use grep, or bash (e.g. sed -n '${line}p' FILE | cut -c ${maxChars + 1}-), if you need it. If the file goes on after it, call read_file with offset=${line + 1}.]`;
}

export function cutLinesNote(maxChars: number, marker: string): string {
  return `[Lines ending in "${marker}" are longer than ${maxChars} characters and were cut; read_file cannot show the rest of them. Use grep, or bash (e.g. sed -n '<line>p' FILE | cut -c ${maxChars + 1}-), if you need it.]`;
}

export const messages = {
  empty: (display: string) => `[${display} is empty (0 bytes).]`,
  pastEnd: (display: string, offset: number, total: number) =>
    `offset=${offset} is past the end of ${display}: the file has ${total} line${total === 1 ? '' : 's'}. Call read_file with an offset from 1 to ${total}.`,
  notFound: (display: string, nearby: string[]) =>
    `File not found: ${display}.${nearby.length > 0 ? ` Similar names in the same directory: ${nearby.join(', ')}.` : ''} Check the path, or use glob to find the file by name (e.g. pattern "**/${lastSegment(display)}").`,
  notADirectoryOnTheWay: (display: string) =>
    `File not found: ${display} (a part of the path is a file, not a directory). Check the path, or use glob to find the file by name.`,
  directory: (display: string) =>
    `${display} is a directory, not a file. To see what it contains, use glob (e.g. pattern "${display === '.' ? '' : `${display}/`}*") or bash ls; then read_file one of its files.`,
  notRegular: (display: string, kind: string) =>
    `${display} is not a regular file (it is a ${kind}); read_file only reads regular files. Use bash if you really need to inspect it.`,
  permission: (display: string) =>
    `Permission denied: ${display} cannot be read by this process. Do not retry; ask the user to make it readable, or work without it.`,
  binary: (display: string, reason: string) =>
    `${display} looks like a binary file (${reason}); its content is not shown: read_file only shows UTF-8 text. To inspect it, use bash (e.g. file ${quote(display)}, or xxd ${quote(display)} | head).`,
  outside: (display: string, real: string) =>
    `Refusing to read ${display}: ${display === real ? 'it is' : `it resolves to ${real},`} outside the project root and the allowed directories (a symbolic link points there, or was changed while the file was opened). read_file reads inside the project only; additional directories can be allowed in settings: permissions.additional_directories.`,
  raced: (display: string) =>
    `${display} changed while it was being opened (a symbolic link appeared on its path), so nothing was read. Call read_file again; if this repeats, something is rewriting the files under it.`,
  hardLinked: (display: string, links: number) =>
    `Refusing to read ${display}: it has ${links} hard links, so the same file also has another name that may lie outside the project, which read_file cannot check. Only files in ${PACKAGE_DIRECTORIES.join(', ')} directories (linked from a package manager's store) are read with several links. Ask the user if you need this file (a copy of it can be read).`,
  aborted: (display: string) => `read_file of ${display} was cancelled.`,
  failed: (display: string, reason: string) => `Could not read ${display}: ${reason}. Check the path and try again.`,
};

function formatBytes(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

function lastSegment(display: string): string {
  const parts = display.split(/[\\/]/);
  return parts[parts.length - 1] || display;
}

function quote(text: string): string {
  return /^[\w./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
