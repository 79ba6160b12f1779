import { describe, expect, it } from "vitest";
import { describeNetworkError } from "./http-network-error.js";

const URL_SHOWN = "http://tickets.example:3115/mcp";

function codeError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

function describeForRequest7(error: Error, responded = false) {
  return describeNetworkError(error, { shownUrl: URL_SHOWN, subject: "request 7", responded });
}

describe("describeNetworkError", () => {
  it("names a refused connection and a failed DNS lookup as unreachable", () => {
    expect(describeForRequest7(codeError("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:3115"))).toEqual({
      kind: "unreachable",
      text: `cannot reach ${URL_SHOWN}: connection refused`,
    });
    expect(describeForRequest7(codeError("ENOTFOUND", "getaddrinfo ENOTFOUND tickets.example"))).toEqual({
      kind: "unreachable",
      text: `cannot reach ${URL_SHOWN}: host not found`,
    });
  });

  it("names a reset connection as broken, for the message it was carrying", () => {
    expect(describeForRequest7(codeError("ECONNRESET", "socket hang up"))).toEqual({
      kind: "broken",
      text: `the connection to ${URL_SHOWN} was reset before the response to request 7`,
    });
  });

  it("names any failure after the server began to answer as broken", () => {
    expect(describeForRequest7(new Error("aborted"), true)).toEqual({
      kind: "broken",
      text: `the connection to ${URL_SHOWN} failed (aborted) before the response to request 7`,
    });
  });

  it("keeps the code of an unknown connection failure", () => {
    expect(describeForRequest7(codeError("DEPTH_ZERO_SELF_SIGNED_CERT", "self-signed certificate"))).toEqual({
      kind: "unreachable",
      text: `cannot reach ${URL_SHOWN}: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)`,
    });
  });
});
