// How the login reads an OAuth endpoint (metadata, registration, token): one request whose JSON answer —
// or error body — is read to a cap and within a deadline, so that a server streaming without end or never
// answering cannot hold the login or fill the memory. A login step that cannot go on is an AuthError.
import { shownUrl } from "../http/failure.js";
import { isJsonObject, type JsonObject } from "../jsonrpc.js";

/** A step of the login that cannot go on: the text says why, for the user. */
export class AuthError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AuthError";
  }
}

/** Metadata documents and token answers are a few kilobytes; a MiB is room enough for any honest one. */
const MAX_ENDPOINT_BODY_BYTES = 1024 * 1024;
/** From the request sent to the last byte of the answer read. */
const ENDPOINT_TIMEOUT_MS = 10_000;

export type EndpointLimits = {
  readonly maxBytes: number;
  readonly timeoutMs: number;
};

export const ENDPOINT_LIMITS: EndpointLimits = { maxBytes: MAX_ENDPOINT_BODY_BYTES, timeoutMs: ENDPOINT_TIMEOUT_MS };

export type EndpointAnswer = {
  readonly status: number;
  /** The body when it is a JSON object; undefined for anything else (empty, HTML, an array). */
  readonly json: JsonObject | undefined;
  /** RFC 9449 §8: the `DPoP-Nonce` the server wants in the next proof. */
  readonly dpopNonce?: string;
};

export type EndpointRequest = {
  readonly method?: "GET" | "POST";
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | URLSearchParams;
};

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/**
 * Sends the request and reads the whole answer within the limits; an answer over the cap or past the
 * deadline is an AuthError naming the URL and the limit. A connection that fails rejects as fetch does.
 */
export async function fetchEndpointJson(url: string, request: EndpointRequest, limits: EndpointLimits = ENDPOINT_LIMITS): Promise<EndpointAnswer> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    // A request with a body (a token or registration request: client credentials, codes) is never sent on to
    // where a redirect points: that could be another origin than the issuer it was bound to.
    const redirect = request.body === undefined ? "follow" : "manual";
    const response = await fetch(url, { method: request.method ?? "GET", headers: request.headers, body: request.body, signal, redirect });
    if (redirect === "manual" && response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      throw new AuthError(`${shownUrl(url)} answered with a redirect (HTTP ${response.status}): not followed, since the request carries client credentials`);
    }
    const text = await readCapped(response, url, limits.maxBytes);
    const dpopNonce = response.headers.get("dpop-nonce") ?? undefined;
    return { status: response.status, json: parseObject(text), ...(dpopNonce === undefined ? {} : { dpopNonce }) };
  } catch (error) {
    if (signal.aborted && !(error instanceof AuthError)) {
      throw new AuthError(`${shownUrl(url)} did not answer within ${limits.timeoutMs / 1000} s: given up`);
    }
    throw error;
  }
}

async function readCapped(response: Response, url: string, maxBytes: number): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new AuthError(`${shownUrl(url)} sent more than ${sizeText(maxBytes)}: refused`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function parseObject(text: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
