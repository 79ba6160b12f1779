// Secrets the user configured (MCP headers and env values, the API key, login tokens) never leave mca in the
// clear: every text that is printed, written to the transcript or given to the model passes through one
// redactor first, before any truncation can cut a secret into a fragment that no longer matches. A secret is
// looked for in each form a text may carry it in (as written, JSON-escaped, URL-encoded, base64), and text
// that arrives in pieces (the model's streamed words) is held back until no secret can be cut in two.
import type { AgentEvent, Message } from "./ports.js";
import type { ToolArgs } from "./tool.js";

export interface Redact {
  (text: string): string;
  /**
   * The redaction of text that goes on in a later piece: `shown` is safe to print now, `held` is the raw tail
   * that may begin a secret and must be put before the next piece. Unset: each piece is redacted alone.
   */
  readonly split?: (text: string) => StreamSplit;
}

export interface StreamSplit {
  readonly shown: string;
  readonly held: string;
}

export const REDACTED = "[redacted]";

/** Shorter values (`1`, `true`, `json`) are settings, not secrets: redacting them would garble ordinary text. */
export const MIN_SECRET_LENGTH = 6;

/**
 * A word of a longer value (the token of `Bearer <token>`) is a secret on its own from this length: a server
 * may echo the token without its scheme, while short words (`Bearer`, `Basic`) are ordinary text.
 */
export const MIN_SECRET_WORD_LENGTH = 8;

/**
 * The base64 forms are looked for only from this length of secret: a piece of base64 cut out of a longer
 * text loses up to two characters at each end, and fewer than ten characters left would match by chance.
 */
export const MIN_ENCODED_SECRET_LENGTH = 8;

/**
 * The variables that carry the model's credentials. Nothing mca starts receives them — not the MCP servers,
 * even those that inherit the whole environment, and not the `bash` tool's commands.
 */
export const MODEL_KEY_VARIABLES: readonly string[] = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"];

/**
 * One pass over the text for every form of every secret, longest first, matched case-insensitively. A
 * stream split holds back the last (longest form − 1) characters, so every match that starts before them
 * is whole: what a stream prints is what the whole text redacted at once would show.
 */
export function createRedactor(secrets: Iterable<string>): Redact {
  const forms = uniqueForms([...secrets].flatMap(secretForms));
  if (forms.length === 0) return Object.assign((text: string) => text, { split: (text: string) => ({ shown: text, held: "" }) });
  forms.sort((a, b) => b.text.length - a.text.length);
  const pattern = new RegExp(forms.map(formPattern).join("|"), "giu");
  const holdChars = Math.max(...forms.map(longestMatch)) - 1;
  const split = (text: string): StreamSplit => {
    const settled = text.length - holdChars;
    let shown = "";
    let done = 0;
    for (const match of text.matchAll(pattern)) {
      if (match.index >= settled) break;
      shown += `${text.slice(done, match.index)}${REDACTED}`;
      done = match.index + match[0].length;
    }
    // Never between the two halves of a surrogate pair: each half printed alone would show as U+FFFD.
    const cut = Math.max(done, isHighSurrogate(text, settled - 1) ? settled - 1 : settled);
    return { shown: shown + text.slice(done, cut), held: text.slice(cut) };
  };
  return Object.assign((text: string) => text.replace(pattern, REDACTED), { split });
}

/** A redactor that always applies the newest of a changing set (secrets learnt while mca runs). */
export function liveRedactor(current: () => Redact): Redact {
  return Object.assign((text: string) => current()(text), {
    split: (text: string): StreamSplit => current().split?.(text) ?? { shown: current()(text), held: "" },
  });
}

/**
 * One text a secret may show as. An encoded form is `wrapped` when the tools that print it break their
 * lines (`base64` every 76 characters, `xxd -p` every 60): it is then also found with line breaks inside.
 */
export interface SecretForm {
  readonly text: string;
  readonly wrapped: boolean;
}

/** The narrowest wrap of a common encoder (`openssl base64` writes 64 columns, `xxd -p` 60): what streams hold back for. */
const NARROWEST_WRAP_CHARS = 60;

/**
 * The texts a secret may show as: as written; inside a JSON string (a transcript line, a tool's JSON
 * arguments); URL-encoded (a query string); in hex (`xxd -p`); and in base64 and base64url, at each of the
 * three byte alignments it can have inside a longer encoded text (`base64 /proc/self/environ`).
 */
export function secretForms(secret: string): SecretForm[] {
  if (secret.length < MIN_SECRET_LENGTH) return [];
  const plain = [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)].map((text) => ({ text, wrapped: false }));
  if (secret.length < MIN_ENCODED_SECRET_LENGTH) return uniqueForms(plain);
  const encoded = [Buffer.from(secret, "utf8").toString("hex"), ...base64Forms(secret, "base64"), ...base64Forms(secret, "base64url")];
  return uniqueForms([...plain, ...encoded.map((text) => ({ text, wrapped: true }))]);
}

function uniqueForms(forms: readonly SecretForm[]): SecretForm[] {
  const byText = new Map<string, SecretForm>();
  for (const form of forms) if (!byText.get(form.text)?.wrapped) byText.set(form.text, form);
  return [...byText.values()];
}

/** A wrapped form may have a line break between any two of its characters. */
function formPattern(form: SecretForm): string {
  return form.wrapped ? [...form.text].map(escapeRegExp).join("(?:\\r?\\n)?") : escapeRegExp(form.text);
}

/** The longest text a form matches, as streams count it: a wrapped one with a CR LF every NARROWEST_WRAP_CHARS. */
function longestMatch(form: SecretForm): number {
  return form.text.length + (form.wrapped ? 2 * Math.ceil(form.text.length / NARROWEST_WRAP_CHARS) : 0);
}

/**
 * The secret's bytes after 0, 1 or 2 other bytes, encoded, keeping only the characters that depend on the
 * secret alone: base64 writes 6 bits a character, so the first ⌈8·offset/6⌉ characters mix in the bytes
 * before it, and the characters after the last full 6 bits mix in the bytes after it (or padding).
 */
function base64Forms(secret: string, alphabet: "base64" | "base64url"): string[] {
  const bytes = Buffer.from(secret, "utf8");
  return [0, 1, 2].map((offset) => {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString(alphabet);
    return encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
  });
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

export interface StreamRedactor {
  /** The next piece of the stream: returns what can be printed now. */
  push(piece: string): string;
  /** The stream ended (or pauses for something else to be printed): returns the rest, redacted. */
  flush(): string;
}

/** Text that arrives in pieces, redacted so that no secret cut across two pieces is ever printed whole. */
export function createStreamRedactor(redact: Redact): StreamRedactor {
  let held = "";
  return {
    push(piece) {
      const text = held + piece;
      const split = redact.split?.(text) ?? { shown: redact(text), held: "" };
      held = split.held;
      return split.shown;
    },
    flush() {
      const rest = redact(held);
      held = "";
      return rest;
    },
  };
}

/**
 * An event listener that hears every text redacted: the model's streamed words through a stream redactor
 * (what it holds back comes out before any other event, so the order stays), and the arguments, results,
 * progress lines and messages of the other events as they are.
 */
export function redactEvents(emit: (event: AgentEvent) => void, redact: Redact): (event: AgentEvent) => void {
  const words = createStreamRedactor(redact);
  return (event) => {
    if (event.type === "text") {
      const shown = words.push(event.delta);
      if (shown !== "") emit({ type: "text", delta: shown });
      return;
    }
    const rest = words.flush();
    if (rest !== "") emit({ type: "text", delta: rest });
    emit(redactEvent(event, redact));
  };
}

function redactEvent(event: Exclude<AgentEvent, { type: "text" }>, redact: Redact): AgentEvent {
  switch (event.type) {
    case "tool_start":
      return { ...event, tool: redact(event.tool), args: redactArgs(event.args, redact) };
    case "tool_progress":
    case "notice":
    case "error":
      return { ...event, message: redact(event.message) };
    case "tool_end":
      return { ...event, tool: redact(event.tool), text: redact(event.text) };
    case "approval":
      return { ...event, tool: redact(event.tool), decision: { ...event.decision, reason: redact(event.decision.reason) } };
    case "message":
      return { ...event, message: redactMessage(event.message, redact) };
    case "usage":
    case "turn_end":
      return event;
    default: {
      const unknown: never = event;
      throw new Error(`unknown event ${JSON.stringify(unknown)}`);
    }
  }
}

/** A message's words, tool names, arguments and results redacted; images are left as they are. */
function redactMessage(message: Message, redact: Redact): Message {
  if (message.role === "assistant") {
    const content = message.content.map((block) => (block.type === "text" ? { ...block, text: redact(block.text) } : { ...block, name: redact(block.name), input: redactArgs(block.input, redact) }));
    return { ...message, content };
  }
  const content = message.content.map((block) => {
    switch (block.type) {
      case "text":
        return { ...block, text: redact(block.text) };
      case "tool_result":
        return { ...block, text: redact(block.text) };
      case "image":
        return block;
      default: {
        const unknown: never = block;
        throw new Error(`unknown block ${JSON.stringify(unknown)}`);
      }
    }
  });
  return { ...message, content };
}

/** The arguments with every string in them (keys included, at any depth) redacted: still the same JSON shape. */
export function redactArgs(args: ToolArgs, redact: Redact): ToolArgs {
  return Object.fromEntries(Object.entries(args).map(([key, value]) => [redact(key), redactValue(value, redact)]));
}

function redactValue(value: unknown, redact: Redact): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact));
  if (typeof value === "object" && value !== null) return redactArgs({ ...value }, redact);
  return value;
}

/**
 * What a program mca starts on someone else's behalf (an MCP stdio server, the model's bash command)
 * inherits unless told otherwise: the variables the official MCP SDKs pass on POSIX systems. The user's
 * tokens in the environment are not its business.
 */
export const INHERITED_ENV_VARIABLES: readonly string[] = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

/** Only the named variables of `env`, and never the model's credentials whatever the names. */
export function onlyVariables(env: Readonly<Record<string, string | undefined>>, names: readonly string[]): Record<string, string> {
  const kept = withoutModelKeys(env);
  for (const name of Object.keys(kept)) if (!names.includes(name)) delete kept[name];
  return kept;
}

/** The environment without the model's credentials: what mca hands to anything it starts. */
export function withoutModelKeys(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !MODEL_KEY_VARIABLES.includes(name)) kept[name] = value;
  }
  return kept;
}

function isHighSurrogate(text: string, index: number): boolean {
  const unit = text.charCodeAt(index);
  return unit >= 0xd800 && unit <= 0xdbff;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
