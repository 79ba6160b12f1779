// A server entry as `mca mcp get`, `add` and `import` show it: every field, with what may be a secret shown
// as [hidden] (env and header values, a client secret, a token-like argument, a URL's password and query
// values). A value that is only a `${VAR}` reference holds no secret and is shown as written.
import type { JsonValue } from "../config/index.js";
import { untrustedText } from "./untrusted-text.js";

export const HIDDEN = "[hidden]";

/** Maps whose every value may be a secret. */
const SECRET_MAPS = new Set(["env", "headers", "http_headers"]);
/** A key whose value may be a secret wherever it stands. */
const SECRET_KEY = /token|secret|password|passwd|credential|api[-_]?key|authorization/i;
/** `${NAME}`, `${NAME:-default}`, `${env:NAME}`, `${input:id}`: a reference, not a value. */
const REFERENCE = /\$\{[^}]*\}/g;
/** What may stand beside references in a value that holds no secret: an auth scheme's name. */
const SCHEME_ONLY = /^((Bearer|Basic|Token) )?$/i;

/** Whether the value is nothing but references (and perhaps an auth scheme before them). */
function isReferenceOnly(value: string): boolean {
  return value.includes("${") && SCHEME_ONLY.test(value.replace(REFERENCE, ""));
}

function hidden(value: JsonValue): JsonValue {
  return typeof value === "string" && isReferenceOnly(value) ? value : HIDDEN;
}

/** A URL's password and query values hidden; the rest (where it goes) shown. */
function hiddenInUrl(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  if (parsed.password === "" && parsed.search === "") return url;
  if (parsed.password !== "") parsed.password = "hidden";
  const query = [...parsed.searchParams.keys()].map((key) => `${encodeURIComponent(key)}=${HIDDEN}`).join("&");
  parsed.search = "";
  return `${parsed.toString()}${query === "" ? "" : `?${query}`}`;
}

/** `--token xyz` and `--token=xyz` keep the flag and hide the value. */
function hiddenArgs(args: readonly JsonValue[]): JsonValue[] {
  return args.map((arg, index) => {
    const before = args[index - 1];
    if (typeof arg !== "string") return arg;
    const equals = arg.indexOf("=");
    if (arg.startsWith("-") && equals > 0 && SECRET_KEY.test(arg.slice(0, equals))) {
      const value = arg.slice(equals + 1);
      return isReferenceOnly(value) ? arg : `${arg.slice(0, equals + 1)}${HIDDEN}`;
    }
    return typeof before === "string" && before.startsWith("-") && !before.includes("=") && SECRET_KEY.test(before) ? hidden(arg) : arg;
  });
}

/** The entry with every value that may be a secret replaced by [hidden]. */
export function hideSecrets(entry: JsonValue, key = ""): JsonValue {
  if (typeof entry === "string") {
    if (SECRET_KEY.test(key)) return hidden(entry);
    return /url$/i.test(key) ? hiddenInUrl(entry) : entry;
  }
  if (Array.isArray(entry)) return key === "args" ? hiddenArgs(entry) : entry.map((item) => hideSecrets(item));
  if (!isJsonObject(entry)) return entry;
  const secretMap = SECRET_MAPS.has(key);
  return Object.fromEntries(Object.entries(entry).map(([name, value]) => [name, secretMap ? hidden(value) : hideSecrets(value, name)]));
}

type JsonObject = { readonly [key: string]: JsonValue };

/** Array.isArray does not narrow a readonly array out of a union. */
function isJsonObject(value: JsonValue): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function shown(value: JsonValue): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** One `key: value` line per field, secrets hidden, each indented by `indent`. */
export function entryLines(entry: JsonValue, indent = "  "): string[] {
  const safe = hideSecrets(entry);
  if (!isJsonObject(safe)) return [`${indent}${untrustedText(shown(safe))}`];
  return Object.entries(safe).map(([key, value]) => `${indent}${untrustedText(`${key}: ${shown(value)}`)}`);
}

/** The entry on one line, secrets hidden: what it runs or where it connects, then its other fields. */
export function entrySummary(entry: JsonValue): string {
  const safe = hideSecrets(entry);
  if (!isJsonObject(safe)) return untrustedText(shown(safe));
  const { command, args, url, type, ...rest } = safe;
  const words = [
    ...(typeof type === "string" ? [type] : []),
    ...(typeof command === "string" ? [command] : []),
    ...(Array.isArray(args) ? args.map(shown) : []),
    ...(typeof url === "string" ? [url] : []),
  ];
  const others = Object.entries(rest).map(([key, value]) => `${key}: ${shown(value)}`);
  return untrustedText([words.join(" "), ...others].filter((part) => part !== "").join("  "));
}
