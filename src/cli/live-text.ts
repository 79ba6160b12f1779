// The Markdown block being streamed, shown on the terminal while it is written: plain as it arrives (a
// paragraph as it comes, a code block line by line, a table once its header is complete), then replaced by
// its rendering when the block completes. Only what is still on the screen can be replaced: a block taller
// than the screen keeps its plain text, except a code block, whose lines still in view are highlighted.
import { clusters, clusterWidth, terminalRows } from "./display-width.js";
import { untrustedText } from "./untrusted-text.js";

const FENCE = /^ {0,3}(`{3,}|~{3,})/u;
const TAB_STOP = 8;
/** Where marked-terminal puts a code block's lines: the preview stands where they will. */
const CODE_INDENT = "  ";

/** Tabs to spaces up to the next stop, the column counted as it goes (measuring the line so far at each tab is quadratic). */
function expandTabs(line: string): string {
  if (!line.includes("\t")) return line;
  let out = "";
  let column = 0;
  for (const cluster of clusters(line)) {
    if (cluster === "\t") {
      const spaces = TAB_STOP - (column % TAB_STOP);
      out += " ".repeat(spaces);
      column += spaces;
    } else {
      out += cluster;
      column += clusterWidth(cluster);
    }
  }
  return out;
}

export interface Preview {
  readonly text: string;
  /** A code block's lines, one per source line, as its rendering has them. */
  readonly code: boolean;
}

/** What to show of an incomplete block's Markdown source: every character shown passes untrustedText. */
export function previewOf(pending: string): Preview {
  const lines = untrustedText(pending.replace(/^\n+/u, "")).split("\n").map(expandTabs);
  const first = lines[0] ?? "";
  // A code block's complete lines, its fence left out; the line being written waits for its end.
  if (FENCE.test(first)) {
    const complete = lines.slice(1, -1);
    const body = FENCE.test(complete.at(-1) ?? "") ? complete.slice(0, -1) : complete;
    return { text: body.map((line) => `${CODE_INDENT}${line}\n`).join(""), code: true };
  }
  // A table waits for its header and delimiter rows: until then it may be a paragraph that begins with a bar.
  if (first.trimStart().startsWith("|") && lines.length < 3) return { text: "", code: false };
  return { text: lines.join("\n"), code: false };
}

/** The rows a text takes on a terminal `columns` wide, from its first row to the row the cursor ends on. */
export function rowsOf(text: string, columns: number): number {
  return text.split("\n").reduce((rows, line) => rows + terminalRows(line, columns), 0);
}

const CLEAR_BELOW = "\u001b[J";
const up = (rows: number): string => (rows > 0 ? `\r\u001b[${rows}A` : "\r");

export interface LiveTextDeps {
  readonly write: (text: string) => void;
  readonly columns: () => number | undefined;
  readonly rows: () => number | undefined;
}

export interface LiveText {
  /** Whether the terminal's size is known, so that what is shown can be replaced: without it, blocks show once complete. */
  readonly enabled: () => boolean;
  /** Shows the incomplete block as it stands now. */
  show(pending: string): void;
  /** The block is complete (its whole `source`): its rendering replaces its preview. */
  finish(source: string, rendered: string): void;
  /** Takes the preview off the screen for a line that must stand before it; `show` puts it back. */
  hide(): void;
}

/** A screen of unknown height counts as the smallest usual one. */
const DEFAULT_ROWS = 24;

export function createLiveText({ write, columns, rows }: LiveTextDeps): LiveText {
  let shown: Preview = { text: "", code: false };
  /** The preview's first row can no longer be reached (a line stood between, or it scrolled away). */
  let anchored = true;
  const screenRows = (): number => Math.max(2, rows() ?? DEFAULT_ROWS);
  const rowsUp = (text: string): number => rowsOf(text, columns() ?? Number.POSITIVE_INFINITY) - 1;
  const fits = (text: string): boolean => rowsUp(text) < screenRows() - 1;
  const erase = (): void => {
    if (shown.text !== "") write(`${up(rowsUp(shown.text))}${CLEAR_BELOW}`);
    shown = { text: "", code: false };
  };
  const reset = (): void => {
    shown = { text: "", code: false };
    anchored = true;
  };

  const show = (pending: string): void => {
    const next = previewOf(pending);
    if (next.text.startsWith(shown.text)) write(next.text.slice(shown.text.length));
    else if (anchored && fits(shown.text)) {
      erase();
      write(next.text);
    } else return;
    shown = next;
    if (!fits(shown.text)) anchored = shown.code;
  };

  return {
    enabled: () => columns() !== undefined,
    show,
    finish(source, rendered) {
      // The preview first catches up with the whole block: a code block's last line, a paragraph's last words.
      if (shown.text !== "") show(source);
      if (shown.text === "") {
        write(rendered);
        return reset();
      }
      const plain = shown.text.endsWith("\n") ? "" : "\n";
      if (anchored && fits(shown.text)) {
        erase();
        write(rendered);
        return reset();
      }
      const renderedLines = rendered.replace(/\n$/u, "").split("\n");
      const shownLines = shown.text.replace(/\n$/u, "").split("\n");
      if (!anchored || !shown.code || renderedLines.length !== shownLines.length) {
        write(plain);
        return reset();
      }
      // A code block taller than the screen: its lines still in view are drawn again, highlighted.
      let inView = 0;
      let used = 0;
      for (const line of [...shownLines].reverse()) {
        const height = rowsOf(line, columns() ?? Number.POSITIVE_INFINITY);
        if (used + height >= screenRows()) break;
        used += height;
        inView += 1;
      }
      write(`${up(used)}${CLEAR_BELOW}${renderedLines.slice(-inView).join("\n")}\n`);
      reset();
    },
    hide() {
      if (anchored && fits(shown.text)) erase();
      else {
        if (shown.text !== "" && !shown.text.endsWith("\n")) write("\n");
        // What was shown stays; the rest of the block follows the line put before it.
        anchored = false;
      }
    },
  };
}
