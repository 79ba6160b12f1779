// Text a server, a tool or a file supplied, made safe to print: what a terminal would obey (escape sequences,
// cursor moves, a carriage return that rewrites the line) or what would hide text from the reader (bidi
// overrides, zero-width and tag characters) is shown as a visible `\uXXXX` escape; tabs and newlines stay.

/**
 * C0 controls but tab and newline (a lone carriage return included), DEL and the C1 controls (the 8-bit CSI
 * and OSC among them); the bidi marks, embeddings, overrides and isolates; the zero-width characters and
 * the byte-order mark; the line and paragraph separators; and the invisible tag characters that can carry
 * ASCII text unseen. A zero-width joiner inside an emoji sequence is escaped too: the cost is a glyph shown
 * in pieces, which is better than a place to hide text.
 */
const HIDDEN_OR_OBEYED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\u{e0000}-\u{e007f}]/gu;

/** Each UTF-16 unit as `\uXXXX`: the same spelling JSON uses, so a JSON text stays valid JSON with the same value. */
function visible(char: string): string {
  let out = "";
  for (let index = 0; index < char.length; index += 1) out += `\\u${char.charCodeAt(index).toString(16).padStart(4, "0")}`;
  return out;
}

/** A CR before a newline ends a line as the newline does (Windows line ends) and is dropped; any other CR is shown. */
export function untrustedText(text: string): string {
  return text.replaceAll("\r\n", "\n").replace(HIDDEN_OR_OBEYED, visible);
}

/** Pretty-printed JSON with a final newline, whose strings show hidden or obeyed characters as `\uXXXX` escapes: `JSON.parse` reads back the same value. */
export function untrustedJson(value: unknown): string {
  return `${untrustedText(JSON.stringify(value, null, 2))}\n`;
}
