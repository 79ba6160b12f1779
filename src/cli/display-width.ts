// How many columns text takes on a terminal. A terminal draws a grapheme cluster (Intl.Segmenter) as one
// character: as wide as the East Asian Width of its base (get-east-asian-width, Unicode's table as its
// maintainers keep it), two for an emoji sequence, none for marks, joiners and styles. These are the rules of
// string-width, which mca does not load at start: it builds its segmenter at import (the first Intl object
// loads ICU, ~8 ms, paid by every `mca tools --json`) and compiles `\p{RGI_Emoji}` on first use (~14 ms,
// paid before the chat's banner). A test holds these widths against string-width's.
import { eastAsianWidth } from "get-east-asian-width";

/** An SGR style (`ESC [ … m`), an OSC 8 link sequence, or a private-use mark the Markdown renderer brackets a link with until it is made one: zero columns wide. */
const SEQUENCE = /\u001b\[[0-9;]*m|\u001b\]8;[^\u0007]*\u0007|[\u{e000}\u{e001}]/u;
const SEQUENCES = new RegExp(SEQUENCE.source, "gu");
const WHOLE_SEQUENCE = new RegExp(`^(?:${SEQUENCE.source})$`, "u");

/**
 * Printable ASCII and the Latin letters and signs up to U+02FF but the soft hyphen: each one column and a
 * cluster of its own (no mark, joiner, selector or wide character is below U+0300), so text made of them
 * alone needs no segmenter and no table. Most of what mca prints, the banner's `·` included.
 */
const NARROW = /^[\u0020-\u007e\u00a0-\u00ac\u00ae-\u02ff]*$/u;
/** A character that shows: not a control, a format or default-ignorable character, or a mark that stands on another. */
const VISIBLE = /[^\p{Default_Ignorable_Code_Point}\p{Control}\p{Format}\p{Nonspacing_Mark}\p{Enclosing_Mark}\p{Surrogate}]/u;
/** After the base, what takes columns of its own: spacing marks (Devanagari's vowel signs) and halfwidth forms (ﾞ). */
const SPACING = /[\p{Spacing_Mark}\uff00-\uffef]/u;
const PICTOGRAPHS = /\p{Extended_Pictographic}/gu;
const KEYCAP = /^[\d#*]\ufe0f?\u20e3$/u;
const FLAG = /^\p{Regional_Indicator}{2}$/u;
/** The emoji presentation selector or a skin tone: the pictograph before it is drawn as an emoji. */
const EMOJI_PRESENTATION = /[\ufe0f\p{Emoji_Modifier}]/u;
/** Real emoji sequences are short; a longer cluster is measured by its base alone. */
const MAX_EMOJI_SEQUENCE_CHARS = 50;

/** Made on first use: it loads ICU's data, which a run that prints only ASCII never needs. */
let segmenter: Intl.Segmenter | undefined;
/**
 * Node 20's segmenter takes time in the square of the text's length to step through it (200,000 characters:
 * minutes), so a text is segmented this many UTF-16 units at a time, the last cluster of each piece carried
 * into the next, where it may go on.
 */
const SEGMENT_CHUNK_CHARS = 256;

/** The text's grapheme clusters: what a terminal draws as one character (`e` with its accent, a flag, a family). */
export function* clusters(text: string): Generator<string> {
  if (NARROW.test(text)) {
    yield* text;
    return;
  }
  segmenter ??= new Intl.Segmenter();
  let carried = "";
  for (let at = 0; at < text.length; ) {
    // Never between the two halves of a character: the half would be a cluster of its own.
    let end = at + SEGMENT_CHUNK_CHARS;
    const unit = text.charCodeAt(end - 1);
    if (unit >= 0xd800 && unit <= 0xdbff) end += 1;
    const piece = `${carried}${text.slice(at, end)}`;
    at = end;
    let last = "";
    for (const { segment } of segmenter.segment(piece)) {
      if (last !== "") yield last;
      last = segment;
    }
    // A cluster longer than a piece (a letter under thousands of marks) is cut there rather than carried on.
    if (last.length > SEGMENT_CHUNK_CHARS) {
      yield last;
      last = "";
    }
    carried = last;
  }
  if (carried !== "") yield carried;
}

/** `✅`, `❤️`, `👍🏽`, `1️⃣`, a flag, a family joined by ZWJ: two columns, whatever the table says of its first character. */
function isEmojiSequence(cluster: string): boolean {
  if (cluster.length > MAX_EMOJI_SEQUENCE_CHARS) return false;
  if (KEYCAP.test(cluster) || FLAG.test(cluster)) return true;
  const pictographs = cluster.match(PICTOGRAPHS)?.length ?? 0;
  if (pictographs === 0) return false;
  return EMOJI_PRESENTATION.test(cluster) || (cluster.includes("\u200d") && pictographs >= 2);
}

/** The columns one cluster takes (a style sequence: none). */
export function clusterWidth(cluster: string): number {
  const first = cluster.codePointAt(0) ?? 0;
  if (cluster.length === 1 && first >= 0x20 && first < 0x7f) return 1;
  // One code point: no sequence, no mark after it; the table alone says.
  if (cluster.length === (first > 0xffff ? 2 : 1)) return VISIBLE.test(cluster) ? eastAsianWidth(first) : 0;
  const start = cluster.search(VISIBLE);
  if (start === -1) return 0;
  if (isEmojiSequence(cluster)) return 2;
  const base = cluster.codePointAt(start) ?? 0;
  let columns = eastAsianWidth(base);
  for (const char of cluster.slice(start + (base > 0xffff ? 2 : 1))) {
    if (SPACING.test(char)) columns += eastAsianWidth(char.codePointAt(0) ?? 0);
  }
  return columns;
}

/** Whether a piece of text is a style or link sequence, or a link mark, whole: it takes no column. */
export function isSequence(piece: string): boolean {
  return piece.startsWith("\u001b") ? WHOLE_SEQUENCE.test(piece) : piece === "\u{e000}" || piece === "\u{e001}";
}

/** The text in pieces, in order: a style or link sequence whole, or one cluster. */
export function pieces(text: string): string[] {
  // One pass, a cluster at a time: spreading a long word's characters into push overflows the stack.
  const out: string[] = [];
  let at = 0;
  for (const match of text.matchAll(SEQUENCES)) {
    for (const cluster of clusters(text.slice(at, match.index))) out.push(cluster);
    out.push(match[0]);
    at = match.index + match[0].length;
  }
  for (const cluster of clusters(text.slice(at))) out.push(cluster);
  return out;
}

/** The columns a text takes on one line, its styles not counted. */
export function visibleWidth(text: string): number {
  const plain = text.replace(SEQUENCES, "");
  if (NARROW.test(plain)) return plain.length;
  let columns = 0;
  for (const cluster of clusters(plain)) columns += clusterWidth(cluster);
  return columns;
}

/**
 * The rows one line takes on a terminal `columns` wide: a wide character that would stand across the last
 * column starts the next row, so a line of them can take more rows than its width over the terminal's.
 */
export function terminalRows(line: string, columns: number): number {
  const plain = line.replace(SEQUENCES, "");
  if (NARROW.test(plain) || !Number.isFinite(columns)) return Math.max(1, Math.ceil(visibleWidth(plain) / columns));
  let rows = 1;
  let used = 0;
  for (const cluster of clusters(plain)) {
    const width = clusterWidth(cluster);
    if (used > 0 && used + width > columns) {
      rows += 1;
      used = 0;
    }
    used += width;
  }
  return rows;
}
