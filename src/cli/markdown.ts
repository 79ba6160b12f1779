// The model's answers rendered for the chat's terminal: headings, emphasis, lists, tables and fenced code
// with syntax colour, drawn by marked-terminal. Streamed text is rendered a block at a time, as soon as the
// block is complete (a blank line outside a code fence ends one), so nothing flickers or is redrawn and a
// long answer shows as it comes. The text is made safe (untrustedText) before it is rendered: the renderer
// adds its own styles, and nothing the model wrote can reach the terminal as a control sequence.
import { untrustedText } from "./untrusted-text.js";

/** Renders one or more complete Markdown blocks into terminal text (ending with a newline). */
export type MarkdownRenderer = (markdown: string) => string;

/** Loaded on first use: the Markdown and highlighting libraries are needed only in the chat. */
export async function loadMarkdownRenderer(width: () => number | undefined): Promise<MarkdownRenderer> {
  const [{ Marked }, { markedTerminal }] = await Promise.all([import("marked"), import("marked-terminal")]);
  return (markdown) => {
    const columns = width() ?? 80;
    const marked = new Marked(markedTerminal({ width: Math.max(20, columns - 2), reflowText: true, tab: 2 }));
    const rendered = marked.parse(untrustedText(markdown), { async: false });
    return `${rendered.replace(/\n+$/u, "")}\n`;
  };
}

/**
 * Cuts streamed Markdown into complete blocks. `push` returns the blocks a delta completed (maybe none);
 * `end` returns whatever is left when the answer ends. A block ends at a blank line, except inside a fenced
 * code block (``` or ~~~), which ends at its closing fence line.
 */
export interface MarkdownBlocks {
  push(delta: string): string;
  end(): string;
}

export function createMarkdownBlocks(): MarkdownBlocks {
  let pending = "";
  /** The fence that opened the code block being read (its character run), or null outside code. */
  let fence: string | null = null;
  /** How much of `pending` was already scanned line by line (always at a line start). */
  let scanned = 0;
  /** Where the complete blocks in `pending` end. */
  let complete = 0;

  const scan = (): void => {
    for (;;) {
      const newline = pending.indexOf("\n", scanned);
      if (newline === -1) return;
      const line = pending.slice(scanned, newline);
      scanned = newline + 1;
      const marker = /^ {0,3}(`{3,}|~{3,})/u.exec(line)?.[1];
      if (fence === null && marker !== undefined) {
        fence = marker;
      } else if (fence !== null && marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
        fence = null;
        complete = scanned;
      } else if (fence === null && line.trim() === "") {
        complete = scanned;
      }
    }
  };

  return {
    push(delta) {
      pending += delta;
      scan();
      if (complete === 0) return "";
      const blocks = pending.slice(0, complete);
      pending = pending.slice(complete);
      scanned -= complete;
      complete = 0;
      return blocks.trim() === "" ? "" : blocks;
    },
    end() {
      const rest = pending;
      pending = "";
      scanned = 0;
      complete = 0;
      fence = null;
      return rest.trim() === "" ? "" : rest;
    },
  };
}
