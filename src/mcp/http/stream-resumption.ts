// When a 2025-11-25 server closes a request's event stream before the response, whether and when to resume
// it (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery):
// a pure decision over what the closed stream showed; the exchange makes the GET.
//
// The 2025-11-25 text: "After the server has sent an SSE event with an event ID to the client, the server
// MAY close the connection (without terminating the SSE stream) at any time … The client SHOULD then 'poll'
// the SSE stream by attempting to reconnect." "The client MUST respect the retry field, waiting the given
// number of milliseconds before attempting to reconnect." "If the client wishes to resume after a
// disconnection (whether due to network failure or server-initiated closure), it SHOULD issue an HTTP GET
// to the MCP endpoint, and include the Last-Event-ID header to indicate the last event ID it received."
// Event ids are a cursor "on a per-stream basis": the cursor is the request's own, never shared.
// The 2026-07-28 era has no sessions and no GET streams: its exchanges never resume.

/** Without a `retry` field, a stream is resumed after this (the SSE rules leave the default to the client). */
export const DEFAULT_RECONNECTION_TIME_MS = 1000;
/** A server that asks for a longer wait is not waited for: the request fails saying so (its timeout would end it anyway). */
export const MAX_RECONNECTION_TIME_MS = 30_000;
/** Resumptions in a row that bring no new event id: past this the server is not resuming, and the request fails. */
export const MAX_RESUMPTIONS_WITHOUT_PROGRESS = 3;
/** Resumptions of one request in all, however each went; the request's own timeout bounds them too. */
const MAX_RESUMPTIONS = 50;
/** An id goes back in a header: visible ASCII, of a sane length, as a session id must be. */
export const SENDABLE_EVENT_ID = /^[\x21-\x7e]{1,1024}$/;

/** What the resumptions of one request have seen so far. */
export type StreamCursor = {
  /** The last event id any of the request's streams carried; "" before any. */
  readonly lastEventId: string;
  /** The last `retry` any of them set, in ms. */
  readonly reconnectionTimeMs: number | undefined;
  readonly resumptions: number;
  readonly withoutProgress: number;
};

/** What one stream (the POST's, or a resumption's) showed before it closed. */
export type ClosedStream = {
  /** The stream reader's last event id ("" when this stream dispatched none with an id). */
  readonly lastEventId: string;
  readonly reconnectionTimeMs: number | undefined;
};

export type Resumption =
  | { readonly kind: "resume"; readonly lastEventId: string; readonly delayMs: number }
  | { readonly kind: "give-up"; readonly reason: string };

export const NEW_CURSOR: StreamCursor = { lastEventId: "", reconnectionTimeMs: undefined, resumptions: 0, withoutProgress: 0 };

/** The cursor after `stream` closed, and whether to resume (the GET's `Last-Event-ID` and the wait before it). */
export function planResumption(cursor: StreamCursor, stream: ClosedStream): { readonly cursor: StreamCursor; readonly next: Resumption } {
  const advanced = stream.lastEventId !== "" && stream.lastEventId !== cursor.lastEventId;
  const next: StreamCursor = {
    lastEventId: stream.lastEventId === "" ? cursor.lastEventId : stream.lastEventId,
    reconnectionTimeMs: stream.reconnectionTimeMs ?? cursor.reconnectionTimeMs,
    resumptions: cursor.resumptions + 1,
    withoutProgress: advanced ? 0 : cursor.withoutProgress + 1,
  };
  return { cursor: next, next: decide(next) };
}

function decide(cursor: StreamCursor): Resumption {
  if (cursor.lastEventId === "") return { kind: "give-up", reason: "the server sent no event id to resume it from" };
  if (!SENDABLE_EVENT_ID.test(cursor.lastEventId)) return { kind: "give-up", reason: "its last event id cannot be sent back in a Last-Event-ID header" };
  if (cursor.withoutProgress > MAX_RESUMPTIONS_WITHOUT_PROGRESS) {
    return { kind: "give-up", reason: `${MAX_RESUMPTIONS_WITHOUT_PROGRESS} resumptions in a row brought no new event` };
  }
  if (cursor.resumptions > MAX_RESUMPTIONS) return { kind: "give-up", reason: `it was resumed ${MAX_RESUMPTIONS} times` };
  const delayMs = cursor.reconnectionTimeMs ?? DEFAULT_RECONNECTION_TIME_MS;
  if (delayMs > MAX_RECONNECTION_TIME_MS) {
    return { kind: "give-up", reason: `the server asked to reconnect after ${delayMs} ms, longer than mca waits (${MAX_RECONNECTION_TIME_MS} ms)` };
  }
  return { kind: "resume", lastEventId: cursor.lastEventId, delayMs };
}
