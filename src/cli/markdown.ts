// The model's answers rendered for the chat's terminal: headings, emphasis, lists, tables and fenced code
// with syntax colour, drawn by marked-terminal. Streamed text is rendered a block at a time, as soon as the
// block is complete (a blank line outside a code fence ends one), so nothing flickers or is redrawn and a
// long answer shows as it comes. The text is made safe (untrustedText) before it is rendered: the renderer
// adds its own styles, and nothing the model wrote can reach the terminal as a control sequence. A link
// shows where it goes: `text (target)` when its text says something else than its target.
import type { Renderer, Tokens } from "marked";
import { untrustedText } from "./untrusted-text.js";

/** Renders one or more complete Markdown blocks into terminal text (ending with a newline). */
export type MarkdownRenderer = (markdown: string) => string;

/** OSC 8 (https://github.com/Alhadis/OSC8-Adoption): `ESC ] 8 ; params ; URI ST`, the text, then the same with no URI. */
const hyperlink = (uri: string, text: string): string => `\u001b]8;;${uri}\u0007${text}\u001b]8;;\u0007`;

/**
 * Where a clickable link's text begins and ends while marked-terminal reflows the paragraph: its reflow
 * knows colour codes only, and would count an OSC 8 sequence as words and cut a long one in two. Private-use
 * characters, shown escaped when the model writes them, so that only the renderer makes a link.
 */
const LINK_START = "\u{e000}";
const LINK_END = "\u{e001}";
const LINK_MARKS = /[\u{e000}\u{e001}]/gu;
const LINK_SPAN = /\u{e000}([^\u{e001}]*)\u{e001}/gu;

/**
 * Loaded on first use: the Markdown and highlighting libraries are needed only in the chat. With
 * `hyperlinks` (the terminal draws OSC 8 links), a link whose text is its own URL is made clickable; any
 * other link never is one, since the terminal would show the text and hide where a click goes.
 */
export async function loadMarkdownRenderer(width: () => number | undefined, hyperlinks = false): Promise<MarkdownRenderer> {
  const [{ Marked }, { markedTerminal }, { default: chalk }] = await Promise.all([import("marked"), import("marked-terminal"), import("chalk")]);
  return (markdown) => {
    const columns = width() ?? 80;
    /** The targets of the clickable links, in the order their marked text comes in the output. */
    const targets: string[] = [];
    const link = function (this: Renderer, token: Tokens.Link): string {
      const text = this.parser.parseInline(token.tokens);
      // The source was made safe before parsing; the target is shown through it again, as a value of its own.
      const target = untrustedText(token.href);
      // An e-mail address is its own `mailto:` link.
      const same = token.text === token.href || `mailto:${token.text}` === token.href;
      if (!same) return `${chalk.blue(text)} (${chalk.blue.underline(target)})`;
      if (!hyperlinks) return chalk.blue.underline(text);
      targets.push(target);
      return `${LINK_START}${chalk.blue.underline(text)}${LINK_END}`;
    };
    const marked = new Marked(markedTerminal({ width: Math.max(20, columns - 2), reflowText: true, tab: 2 }), { renderer: { link } });
    const source = untrustedText(markdown).replace(LINK_MARKS, (mark) => `\\u${mark.charCodeAt(0).toString(16)}`);
    let next = 0;
    const rendered = marked.parse(source, { async: false }).replace(LINK_SPAN, (_span, text: string) => {
      const uri = targets[next];
      next += 1;
      return uri === undefined ? text : hyperlink(uri, text);
    });
    return `${rendered.replace(/\n+$/u, "")}\n`;
  };
}

type Env = Readonly<Record<string, string | undefined>>;

/** Terminals that draw OSC 8 links, told by what they set in the environment; others may print the sequence. */
const HYPERLINK_TERMINALS: ReadonlyArray<(env: Env) => boolean> = [
  (env) => ["iTerm.app", "WezTerm", "vscode", "ghostty"].includes(env.TERM_PROGRAM ?? ""),
  (env) => env.WT_SESSION !== undefined,
  (env) => env.TERM === "xterm-kitty" || env.TERM === "foot",
  // VTE (GNOME Terminal and others) since 0.50.
  (env) => Number(env.VTE_VERSION ?? "0") >= 5000,
];

/** Whether the chat may make a link clickable: `FORCE_HYPERLINK=1` or `0` decides, else the terminal's own variables. */
export function terminalDrawsHyperlinks(env: Env): boolean {
  const forced = env.FORCE_HYPERLINK;
  if (forced !== undefined && forced !== "") return forced !== "0";
  return HYPERLINK_TERMINALS.some((draws) => draws(env));
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
