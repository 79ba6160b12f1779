// Secrets the user configured (MCP headers and env values, the API key) never leave mca in the clear: every
// text that is printed, written to the transcript or given to the model passes through one redactor first,
// before any truncation can cut a secret into a fragment that no longer matches.

export type Redact = (text: string) => string;

export const REDACTED = "[redacted]";

/** Shorter values (`1`, `true`, `json`) are settings, not secrets: redacting them would garble ordinary text. */
export const MIN_SECRET_LENGTH = 6;

/**
 * A word of a longer value (the token of `Bearer <token>`) is a secret on its own from this length: a server
 * may echo the token without its scheme, while short words (`Bearer`, `Basic`) are ordinary text.
 */
export const MIN_SECRET_WORD_LENGTH = 8;

/**
 * The variables that carry the model's credentials. Nothing mca starts receives them — not the MCP servers,
 * even those that inherit the whole environment, and not the `bash` tool's commands.
 */
export const MODEL_KEY_VARIABLES: readonly string[] = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"];

/** One pass over the text for all secrets, longest first, matched case-insensitively. */
export function createRedactor(secrets: Iterable<string>): Redact {
  const distinct = [...new Set([...secrets].filter((secret) => secret.length >= MIN_SECRET_LENGTH))];
  if (distinct.length === 0) return (text) => text;
  distinct.sort((a, b) => b.length - a.length);
  const pattern = new RegExp(distinct.map(escapeRegExp).join("|"), "giu");
  return (text) => text.replace(pattern, REDACTED);
}

/** Each configured value, and each long enough word inside it, as the secrets a redactor looks for. */
export function secretsIn(values: Iterable<string>): string[] {
  const secrets: string[] = [];
  for (const value of values) {
    secrets.push(value);
    const words = value.split(/\s+/).filter((word) => word.length >= MIN_SECRET_WORD_LENGTH && word !== value);
    secrets.push(...words);
  }
  return secrets;
}

/** The environment without the model's credentials: what mca hands to anything it starts. */
export function withoutModelKeys(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !MODEL_KEY_VARIABLES.includes(name)) kept[name] = value;
  }
  return kept;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
