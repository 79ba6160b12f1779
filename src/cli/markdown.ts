// The model's answers rendered for the chat's terminal: headings, emphasis, lists, tables and fenced code
// with syntax colour, drawn by marked-terminal. Streamed text is rendered a block at a time, as soon as the
// block is complete (a blank line outside a code fence ends one); until then live-text.ts shows it plain.
// The text is made safe (untrustedText) before it is rendered: the renderer
// adds its own styles, and nothing the model wrote can reach the terminal as a control sequence. A link
// shows where it goes: `text (target)` when its text says something else than its target.
import type { Renderer, Token, Tokens } from "marked";
import { layoutTable, visibleWidth, wrapStyled } from "./text-layout.js";
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

/** What marked-terminal's inline code puts for a colon, which its paragraphs put back; ours put it back too. */
const COLON_STAND_IN = /\*#COLON\|\*/gu;
const ENTITIES: Readonly<Record<string, string>> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };

/** The bullets of an unordered list, by how deep it is nested. */
const BULLETS = ["•", "◦", "▪"];
/** How far a list or a quote stands in from the text around it. */
const LIST_INDENT = 2;
const QUOTE_BAR = "│ ";

/**
 * Loaded on first use: the Markdown and highlighting libraries are needed only in the chat. With
 * `hyperlinks` (the terminal draws OSC 8 links), a link whose text is its own URL is made clickable; any
 * other link never is one, since the terminal would show the text and hide where a click goes.
 * Paragraphs, headings, lists, quotes and tables are laid out here (text-layout.ts), each within the width left to it
 * where it stands: inline marks render inside a list item, a quote or a table cell as they do in a paragraph.
 */
export async function loadMarkdownRenderer(width: () => number | undefined, hyperlinks = false): Promise<MarkdownRenderer> {
  const [{ Marked }, { markedTerminal }, { default: chalk }] = await Promise.all([import("marked"), import("marked-terminal"), import("chalk")]);
  return (markdown) => {
    const columns = width() ?? 80;
    /** The columns left to the block being rendered: narrower inside a list item or a quote. */
    let room = Math.max(20, columns - 2);
    let listDepth = 0;
    const within = <T>(indent: number, render: () => T): T => {
      room -= indent;
      try {
        return render();
      } finally {
        room += indent;
      }
    };
    const inline = (parser: Renderer["parser"], tokens: Token[]): string =>
      parser.parseInline(tokens).replace(COLON_STAND_IN, ":").replace(/&(amp|lt|gt|quot|#39);/gu, (entity) => ENTITIES[entity] ?? entity);
    const block = (lines: readonly string[]): string => `${lines.join("\n")}\n\n`;
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
    // marked-terminal shows a text token's source as it is; one with inline tokens (a tight list item's) is rendered.
    const text = function (this: Renderer, token: Tokens.Text | Tokens.Escape): string | false {
      return "tokens" in token && token.tokens !== undefined ? inline(this.parser, token.tokens) : false;
    };
    const paragraph = function (this: Renderer, token: Tokens.Paragraph): string {
      return block(wrapStyled(inline(this.parser, token.tokens), room));
    };
    // marked-terminal would reflow a heading counting characters, so a CJK or emoji heading ran past the width.
    const heading = function (this: Renderer, token: Tokens.Heading): string {
      const style = token.depth === 1 ? chalk.magenta.underline.bold : chalk.green.bold;
      return block(wrapStyled(`${"#".repeat(token.depth)} ${inline(this.parser, token.tokens)}`, room).map((line) => style(line)));
    };
    const itemLines = (parser: Renderer["parser"], item: Tokens.ListItem): string[] => {
      let box = item.task ? (item.checked === true ? "[x] " : "[ ] ") : "";
      return item.tokens.flatMap((child): string[] => {
        if (child.type === "space" || child.type === "checkbox") return [];
        if (child.type === "text" || child.type === "paragraph") {
          const words = "tokens" in child && Array.isArray(child.tokens) ? inline(parser, child.tokens) : untrustedText(child.raw);
          const lines = wrapStyled(`${box}${words}`, room);
          box = "";
          return lines;
        }
        return parser.parse([child]).replace(/\n+$/u, "").split("\n");
      });
    };
    const list = function (this: Renderer, token: Tokens.List): string {
      const first = typeof token.start === "number" ? token.start : 1;
      const marks = token.items.map((_, index) => (token.ordered ? `${first + index}.` : (BULLETS[listDepth % BULLETS.length] ?? "•")));
      const hang = Math.max(...marks.map((mark) => visibleWidth(mark))) + 1;
      const indent = listDepth === 0 ? LIST_INDENT : 0;
      listDepth += 1;
      try {
        const lines = token.items.flatMap((item, index) =>
          within(indent + hang, () => itemLines(this.parser, item)).map((line, row) => `${" ".repeat(indent)}${row === 0 ? (marks[index] ?? "").padEnd(hang) : " ".repeat(hang)}${line}`),
        );
        return block(lines);
      } finally {
        listDepth -= 1;
      }
    };
    const blockquote = function (this: Renderer, token: Tokens.Blockquote): string {
      const inner = within(QUOTE_BAR.length, () => this.parser.parse(token.tokens)).replace(/\n+$/u, "");
      return block(inner.split("\n").map((line) => `${chalk.gray(QUOTE_BAR)}${chalk.italic(line)}`));
    };
    const table = function (this: Renderer, token: Tokens.Table): string {
      const cell = (tableCell: Tokens.TableCell): string => inline(this.parser, tableCell.tokens);
      const laid = layoutTable({ header: token.header.map(cell), rows: token.rows.map((row) => row.map(cell)), align: token.align }, room, { border: chalk.gray, head: chalk.bold });
      return block(laid);
    };
    const marked = new Marked(markedTerminal({ width: room, reflowText: true, tab: 2 }), { renderer: { link, text, paragraph, heading, list, blockquote, table } });
    const source = untrustedText(markdown).replace(LINK_MARKS, (mark) => `\\u${mark.charCodeAt(0).toString(16)}`);
    let next = 0;
    const rendered = marked.parse(source, { async: false }).replace(LINK_SPAN, (_span, linkText: string) => {
      const uri = targets[next];
      next += 1;
      return uri === undefined ? linkText : hyperlink(uri, linkText);
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
  /** The incomplete block as it stands (what `end` would return). */
  pending(): string;
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
    pending: () => pending,
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
