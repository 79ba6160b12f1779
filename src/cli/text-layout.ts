// Styled terminal text laid out within a width (measured in columns by display-width.ts): word wrap that
// carries its styles over each line break, the lines mca prints itself (banner, cost, status) fitted to the
// terminal, tables drawn as a grid when they fit, with wrapped cells when they can, and as one record per row
// when not even that fits — a row is never broken across the screen; and the plain columns of the slash
// commands' views.
import { clusterWidth, isSequence, pieces, visibleWidth } from "./display-width.js";
import { untrustedText } from "./untrusted-text.js";

export { visibleWidth };

/** SGR codes that end an open style, by the code that opened it. */
function closes(open: string, code: string): boolean {
  const first = Number(open.split(";")[0]);
  const value = Number(code.split(";")[0]);
  if (value === 0 || code === "") return true;
  if (value === 22) return first === 1 || first === 2;
  if (value === 39) return (first >= 30 && first <= 38) || (first >= 90 && first <= 97);
  if (value === 49) return (first >= 40 && first <= 48) || (first >= 100 && first <= 107);
  return value === first + 20;
}

/**
 * Word wrap within `width` columns. A word longer than a line is cut where the line ends; a style open
 * at a line's end is closed there and opened again on the next line, so a border or an indent beside the
 * line never takes it. Lines the text already has are kept.
 */
export function wrapStyled(text: string, width: number): string[] {
  const room = Math.max(1, width);
  const lines: string[] = [];
  let line = "";
  let used = 0;
  /** The SGR parameters of the styles open now. */
  let open: string[] = [];
  const reopen = (): string => open.map((code) => `\u001b[${code}m`).join("");
  const breakLine = (): void => {
    lines.push(open.length > 0 ? `${line}\u001b[0m` : line);
    line = reopen();
    used = 0;
  };
  for (const source of text.split("\n")) {
    for (const [index, word] of source.split(" ").entries()) {
      const wordWidth = visibleWidth(word);
      const space = index === 0 ? 0 : 1;
      // A word that would fit on a line of its own starts one; a longer one is cut where lines end.
      if (used > 0 && used + space + wordWidth > room && wordWidth <= room) breakLine();
      else if (space === 1) {
        if (used + 1 > room) breakLine();
        else {
          line += " ";
          used += 1;
        }
      }
      for (const piece of pieces(word)) {
        const sgr = /^\u001b\[([0-9;]*)m$/u.exec(piece)?.[1];
        if (sgr !== undefined) {
          open = sgr === "" || sgr === "0" ? [] : [...open.filter((code) => !closes(code, sgr)), ...(/^(22|23|24|27|29|39|49)$/u.test(sgr) ? [] : [sgr])];
          line += piece;
          continue;
        }
        const columns = isSequence(piece) ? 0 : clusterWidth(piece);
        if (used + columns > room) breakLine();
        line += piece;
        used += columns;
      }
    }
    breakLine();
  }
  return lines.map((wrapped) => wrapped.replace(/ +$/u, ""));
}

/** Where a line of parts (the banner, the cost line) breaks first when it is too long for the terminal. */
const PART_SEPARATOR = " · ";

/**
 * Text as it is to stand on a terminal `width` columns wide, so that the terminal never cuts a word at its
 * edge: each line too long is wrapped by word, after a ` · ` between its parts first, so that a part stays
 * whole where it fits on a line. No width (not a terminal, or one of unknown size): the text as it is.
 */
export function fitToWidth(text: string, width: number | undefined): string {
  if (width === undefined) return text;
  return text
    .split("\n")
    .map((line) => (visibleWidth(line) <= width ? line : wrapStyled(breakAtParts(line, width), width).join("\n")))
    .join("\n");
}

/** The line's ` · `-separated parts, as many to a line as fit; the separator's dot ends a line that goes on. */
function breakAtParts(line: string, width: number): string {
  const [first = "", ...rest] = line.split(PART_SEPARATOR);
  const lines: string[] = [];
  let current = first;
  for (const part of rest) {
    const joined = `${current}${PART_SEPARATOR}${part}`;
    if (visibleWidth(joined) <= width) current = joined;
    else {
      const ended = `${current}${PART_SEPARATOR.trimEnd()}`;
      // A part that fits on the line but not with the dot goes without it; a longer one is wrapped by word,
      // the dot with its last word.
      lines.push(visibleWidth(current) <= width && visibleWidth(ended) > width ? current : ended);
      current = part;
    }
  }
  lines.push(current);
  return lines.join("\n");
}

export type Align = "left" | "right" | "center" | null;

export interface TableStyle {
  readonly border: (text: string) => string;
  readonly head: (text: string) => string;
}

export interface TableText {
  /** The header cells and each row's cells, already rendered (styled, one line each). */
  readonly header: readonly string[];
  readonly rows: ReadonlyArray<readonly string[]>;
  readonly align: readonly Align[];
}

/** Narrower than this, a column's words are cut rather than wrapped: the table becomes records instead. */
const MIN_COLUMN_WIDTH = 8;

function pad(text: string, width: number, align: Align): string {
  const gap = Math.max(0, width - visibleWidth(text));
  if (align === "right") return `${" ".repeat(gap)}${text}`;
  if (align === "center") return `${" ".repeat(Math.floor(gap / 2))}${text}${" ".repeat(Math.ceil(gap / 2))}`;
  return `${text}${" ".repeat(gap)}`;
}

/** The grid's width for these column widths: `│ a │ b │`. */
const gridWidth = (widths: readonly number[]): number => widths.reduce((sum, width) => sum + width + 3, 1);

/** Column widths within `width`, the widest narrowed first; null when some column would get under the minimum. */
function fitColumns(natural: readonly number[], width: number): number[] | null {
  const widths = [...natural];
  while (gridWidth(widths) > width) {
    const widest = Math.max(...widths);
    if (widest <= MIN_COLUMN_WIDTH) return null;
    widths[widths.indexOf(widest)] = widest - 1;
  }
  return widths;
}

function grid(table: TableText, widths: readonly number[], style: TableStyle): string[] {
  const rule = (left: string, middle: string, right: string): string => style.border(`${left}${widths.map((width) => "─".repeat(width + 2)).join(middle)}${right}`);
  const row = (cells: readonly string[], head: boolean): string[] => {
    const wrapped = widths.map((width, column) => wrapStyled(cells[column] ?? "", width));
    const height = Math.max(1, ...wrapped.map((lines) => lines.length));
    return Array.from({ length: height }, (_, index) => {
      const shown = widths.map((width, column) => {
        const text = wrapped[column]?.[index] ?? "";
        return ` ${pad(head ? style.head(text) : text, width, table.align[column] ?? null)} `;
      });
      return `${style.border("│")}${shown.join(style.border("│"))}${style.border("│")}`;
    });
  };
  const wraps = widths.some((width, column) => width < visibleWidth(table.header[column] ?? "") || table.rows.some((cells) => width < visibleWidth(cells[column] ?? "")));
  const body = table.rows.flatMap((cells, index) => [...(wraps && index > 0 ? [rule("├", "┼", "┤")] : []), ...row(cells, false)]);
  return [rule("┌", "┬", "┐"), ...row(table.header, true), rule("├", "┼", "┤"), ...body, rule("└", "┴", "┘")];
}

/** Each row as `header: value` lines, the value wrapped under itself; rows apart by a blank line. */
function records(table: TableText, width: number, style: TableStyle): string[] {
  return table.rows.flatMap((cells, index) => [
    ...(index > 0 ? [""] : []),
    ...table.header.flatMap((head, column) => {
      const label = `${head}:`;
      // Continued lines are indented under the label; the label is styled once it is placed.
      const [first = "", ...rest] = wrapStyled(`${label} ${cells[column] ?? ""}`, width - 2);
      const styled = first.startsWith(label) ? `${style.head(label)}${first.slice(label.length)}` : first;
      return [styled, ...rest.map((line) => `  ${line}`)];
    }),
  ]);
}

/** A table's lines within `width` columns: a grid as it is, a grid with wrapped cells, or records. */
export function layoutTable(table: TableText, width: number, style: TableStyle): string[] {
  const natural = table.header.map((head, column) => Math.max(1, visibleWidth(head), ...table.rows.map((cells) => visibleWidth(cells[column] ?? ""))));
  const widths = fitColumns(natural, width);
  return widths === null ? records(table, width, style) : grid(table, widths, style);
}

// ---------------------------------------------------------------------------------------------------
// Plain columns, for the views of rows (/tools, /approvals, /help).

const COLUMN_GAP = "  ";
/** The narrowest a wrapped last column gets, however wide the columns before it. */
const MIN_WRAPPED_COLUMN_CHARS = 24;
const WRAPPED_BELOW_INDENT = "    ";

/**
 * Left-aligned text columns for the plain views (/tools, /approvals, /help): every cell but a row's last is
 * padded to its column's widest; with a width, a longer row is cut with an ellipsis (a table of tools), or
 * its last cell is wrapped under itself (/help's sentences, which are read whole).
 */
export function formatColumns(untrustedRows: readonly (readonly string[])[], width?: number, overflow: "cut" | "wrap" = "cut"): string[] {
  // A server names its tools and claims; a cell is shown safely and measured as shown.
  const rows = untrustedRows.map((row) => row.map(untrustedText));
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, index) => {
      widths[index] = Math.max(widths[index] ?? 0, visibleWidth(cell));
    });
  }
  return rows.flatMap((row) => {
    const lead = row.slice(0, -1).map((cell, index) => `${pad(cell, widths[index] ?? 0, "left")}${COLUMN_GAP}`).join("");
    const leadWidth = visibleWidth(lead);
    const last = row.at(-1) ?? "";
    if (overflow === "cut" || width === undefined) return [clipToWidth(`${lead}${last}`.trimEnd(), width)];
    if (width - leadWidth >= MIN_WRAPPED_COLUMN_CHARS) {
      return wrapStyled(last, width - leadWidth).map((line, index) => `${index === 0 ? lead : " ".repeat(leadWidth)}${line}`.trimEnd());
    }
    // Too narrow beside the columns before it: the cell goes under them, indented.
    return [lead.trimEnd(), ...wrapStyled(last, width - WRAPPED_BELOW_INDENT.length).map((line) => `${WRAPPED_BELOW_INDENT}${line}`.trimEnd())];
  });
}

/**
 * One line cut to `width` columns with an ellipsis, so a narrow terminal does not wrap it mid-word; a wide
 * character or an emoji is never cut in half. No width (not a terminal): the line as it is.
 */
export function clipToWidth(line: string, width: number | undefined): string {
  if (width === undefined || visibleWidth(line) <= width) return line;
  if (width < 1) return "";
  let kept = "";
  let used = 0;
  for (const piece of pieces(line)) {
    const columns = isSequence(piece) ? 0 : clusterWidth(piece);
    if (used + columns > width - 1) break;
    kept += piece;
    used += columns;
  }
  // A style still open would run on past the line.
  return `${kept}…${kept.includes("\u001b[") ? "\u001b[0m" : ""}`;
}
