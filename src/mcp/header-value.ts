// How a string travels in an HTTP header value (spec §5.2, SEP-2243): plain when it is visible ASCII
// without leading/trailing whitespace, otherwise `=?base64?<base64 of the UTF-8 bytes>?=`.

const SENTINEL_PREFIX = "=?base64?";
const SENTINEL_SUFFIX = "?=";
/** Visible ASCII and the space: the only characters a plain header value may hold. */
const PLAIN_SAFE = /^[\x20-\x7e]*$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function looksLikeSentinel(value: string): boolean {
  return value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX);
}

/** "Use the sentinel form when the string cannot be sent plainly" — including a plain look-alike. */
export function encodeHeaderValue(value: string): string {
  const plain = PLAIN_SAFE.test(value) && value.trim() === value && !looksLikeSentinel(value);
  if (plain) return value;
  return SENTINEL_PREFIX + Buffer.from(value, "utf8").toString("base64") + SENTINEL_SUFFIX;
}

/**
 * The server side: a value in the exact lowercase sentinel form is decoded; malformed base64 inside it is
 * an error; anything else (no prefix, `=?BASE64?`) is literal text. Surrounding whitespace is OWS.
 */
export function decodeHeaderValue(raw: string): string | Error {
  const value = raw.trim();
  if (!looksLikeSentinel(value) || value.length < SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length) return value;
  const body = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
  if (!BASE64.test(body)) return new Error(`malformed base64 in header value ${JSON.stringify(raw)}`);
  const decoded = Buffer.from(body, "base64").toString("utf8");
  if (Buffer.from(decoded, "utf8").toString("base64") !== body) {
    return new Error(`header value ${JSON.stringify(raw)} is not valid UTF-8`);
  }
  return decoded;
}
