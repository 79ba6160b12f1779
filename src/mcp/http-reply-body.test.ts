import { describe, expect, it } from "vitest";
import { type ReplyBody, judgeReplyBody } from "./http-reply-body.js";

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
