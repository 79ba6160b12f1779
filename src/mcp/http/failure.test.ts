import { describe, expect, it } from "vitest";
import { describeNetworkError, judgeReplyBody, type ReplyBody } from "./failure.js";

const URL_SHOWN = "http://127.0.0.1:3115/mcp";

function reply(overrides: Partial<ReplyBody>): ReplyBody {
  return {
    status: 200,
    statusMessage: "OK",
    mediaType: "application/json",
    text: "",
    requestId: 7,
    subject: "request 7",
    shownUrl: URL_SHOWN,
    ...overrides,
  };
}

describe("judgeReplyBody", () => {
  it("accepts the response whose id is the request's", () => {
    const text = '{"jsonrpc":"2.0","id":7,"result":{}}';
    expect(judgeReplyBody(reply({ text }))).toEqual({
      outcome: "accepted",
      handUp: { jsonrpc: "2.0", id: 7, result: {} },
    });
  });

  it("accepts an empty 202 for a notification, and refuses an empty body for a request", () => {
    expect(judgeReplyBody(reply({ status: 202, statusMessage: "Accepted", mediaType: "", requestId: undefined }))).toEqual({
      outcome: "accepted",
      handUp: undefined,
    });
    expect(judgeReplyBody(reply({}))).toEqual({
      outcome: "failed",
      handUp: undefined,
      failure: { kind: "protocol", text: `${URL_SHOWN} answered HTTP 200 OK with an empty body to request 7` },
    });
  });

  it("accepts any 2xx to a notification whatever its body, and keeps refusing a failure status", () => {
    const notification = { requestId: undefined, subject: "notification notifications/initialized" };
    expect(judgeReplyBody(reply({ ...notification, status: 202, statusMessage: "Accepted", text: "null" }))).toEqual({
      outcome: "accepted",
      handUp: undefined,
    });
    expect(judgeReplyBody(reply({ ...notification, status: 200, mediaType: "text/html", text: "<p>ok</p>" }))).toEqual({
      outcome: "accepted",
      handUp: undefined,
    });
    expect(judgeReplyBody(reply({ ...notification, status: 400, statusMessage: "Bad Request", mediaType: "text/plain", text: "no" }))).toEqual({
      outcome: "failed",
      handUp: undefined,
      failure: { kind: "protocol", text: `${URL_SHOWN} answered HTTP 400 Bad Request without a JSON-RPC body to notification notifications/initialized: "no"` },
    });
  });

  it("never hands up a response to another request, and fails the exchange", () => {
    const text = '{"jsonrpc":"2.0","id":8,"result":{}}';
    expect(judgeReplyBody(reply({ text }))).toEqual({
      outcome: "failed",
      handUp: undefined,
      failure: { kind: "protocol", text: `${URL_SHOWN} answered HTTP 200 OK to request 7 with a message that is not its response` },
    });
  });

  it("names a JSON body that is not JSON-RPC, with the start of the body", () => {
    expect(judgeReplyBody(reply({ status: 500, statusMessage: "Internal Server Error", text: '{"error":"boom"}' }))).toEqual({
      outcome: "failed",
      handUp: undefined,
      failure: {
        kind: "protocol",
        text:
          `${URL_SHOWN} answered HTTP 500 Internal Server Error with a body that is not JSON-RPC ` +
          '(not a JSON-RPC message: `jsonrpc` is not "2.0") to request 7: "{\\"error\\":\\"boom\\"}"',
      },
    });
  });

  it("accepts a JSON media type with a +json suffix", () => {
    const text = '{"jsonrpc":"2.0","id":7,"result":{}}';
    expect(judgeReplyBody(reply({ mediaType: "application/vnd.api+json", text })).outcome).toBe("accepted");
  });
});

const DNS_URL_SHOWN = "http://tickets.example:3115/mcp";

function codeError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

function describeForRequest7(error: Error, responded = false) {
  return describeNetworkError(error, { shownUrl: DNS_URL_SHOWN, subject: "request 7", responded });
}

describe("describeNetworkError", () => {
  it("names a refused connection and a failed DNS lookup as unreachable", () => {
    expect(describeForRequest7(codeError("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:3115"))).toEqual({
      kind: "unreachable",
      text: `cannot reach ${DNS_URL_SHOWN}: connection refused`,
    });
    expect(describeForRequest7(codeError("ENOTFOUND", "getaddrinfo ENOTFOUND tickets.example"))).toEqual({
      kind: "unreachable",
      text: `cannot reach ${DNS_URL_SHOWN}: host not found`,
    });
  });

  it("names a reset connection as broken, for the message it was carrying", () => {
    expect(describeForRequest7(codeError("ECONNRESET", "socket hang up"))).toEqual({
      kind: "broken",
      text: `the connection to ${DNS_URL_SHOWN} was reset before the response to request 7`,
    });
  });

  it("names any failure after the server began to answer as broken", () => {
    expect(describeForRequest7(new Error("aborted"), true)).toEqual({
      kind: "broken",
      text: `the connection to ${DNS_URL_SHOWN} failed (aborted) before the response to request 7`,
    });
  });

  it("keeps the code of an unknown connection failure", () => {
    expect(describeForRequest7(codeError("DEPTH_ZERO_SELF_SIGNED_CERT", "self-signed certificate"))).toEqual({
      kind: "unreachable",
      text: `cannot reach ${DNS_URL_SHOWN}: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)`,
    });
  });
});

// ---------------------------------------------------------------------------------------------------
// A reply that never ends, from a real loopback server that writes until its socket is closed.
