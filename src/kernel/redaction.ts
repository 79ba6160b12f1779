// Secrets the user configured (MCP headers and env values, the API key) never leave mca in the clear: every
// text that is printed, written to the transcript or given to the model passes through one redactor first,
// before any truncation can cut a secret into a fragment that no longer matches.

export type Redact = (text: string) => string;

export const REDACTED = "[redacted]";

/** Shorter values (`1`, `true`, `json`) are settings, not secrets: redacting them would garble ordinary text. */
export const MIN_SECRET_LENGTH = 6;

/** One pass over the text for all secrets, longest first, matched case-insensitively. */
export function createRedactor(secrets: Iterable<string>): Redact {
  const distinct = [...new Set([...secrets].filter((secret) => secret.length >= MIN_SECRET_LENGTH))];
  if (distinct.length === 0) return (text) => text;
  distinct.sort((a, b) => b.length - a.length);
  const pattern = new RegExp(distinct.map(escapeRegExp).join("|"), "giu");
  return (text) => text.replace(pattern, REDACTED);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
