// The one truncation site: every tool result, local or remote, goes through here before the model or the
// user sees it, so they all share one budget.

export const MAX_RESULT_CHARS = 8000;

export interface TruncatedText {
  readonly text: string;
  readonly truncated: boolean;
}

/**
 * At most MAX_RESULT_CHARS characters (UTF-16 code units) of body, then the sentence
 * `\n\n[<N> more characters were cut to fit the budget]`. A surrogate pair is never split: the body
 * stops one unit short instead, and that unit is counted in N.
 */
export function truncateResult(text: string): TruncatedText {
  if (text.length <= MAX_RESULT_CHARS) return { text, truncated: false };
  const end = isHighSurrogate(text.charCodeAt(MAX_RESULT_CHARS - 1)) ? MAX_RESULT_CHARS - 1 : MAX_RESULT_CHARS;
  const cut = text.length - end;
  return { text: `${text.slice(0, end)}\n\n[${cut} more characters were cut to fit the budget]`, truncated: true };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
