// How mca tells a 2026-07-28 server from a legacy one by its answer to `server/discover` (spec §8
// "Detection rules"): a modern answer keeps it modern, any other answer means legacy — never keyed on one
// error code — and what proves nothing about the era (auth, a dead HTTP server) stays an error.
import { parseDiscoverResult, type DiscoverInfo } from "./discover-info.js";
import { McpError } from "./errors.js";
import { UNSUPPORTED_PROTOCOL_VERSION, type JsonObject } from "./jsonrpc.js";
import { isLegacyVersion } from "./legacy-version.js";
import { readSupportedVersions, SUPPORTED_VERSIONS } from "./protocol-version.js";

export type ProbeVerdict =
  | { readonly era: "modern"; readonly info: DiscoverInfo }
  /** `connectionLost`: the stdio child died of the probe, so `initialize` needs a fresh one. */
  | { readonly era: "legacy"; readonly evidence: string; readonly connectionLost: boolean };

function legacy(evidence: string, connectionLost = false): ProbeVerdict {
  return { era: "legacy", evidence, connectionLost };
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item): item is string => typeof item === "string") ? value : undefined;
}

/** A result to the probe: a DiscoverResult with a version in common is modern, anything else legacy. */
export function judgeDiscoverResult(result: JsonObject, currentVersion: string, label: string): ProbeVerdict | McpError {
  // "Absent resultType (legacy server)": a 2026 result always carries it.
  if (result.resultType === undefined) return legacy("server/discover answered a result without resultType");
  if (result.resultType !== "complete") return legacy(`server/discover answered a result of type ${JSON.stringify(result.resultType)}`);
  const info = parseDiscoverResult(result, currentVersion);
  if (!(info instanceof Error)) return { era: "modern", info };
  const offered = stringList(result.supportedVersions);
  if (offered === undefined) return legacy(`server/discover answered something that is not a DiscoverResult (${info.message})`);
  if (offered.some(isLegacyVersion)) return legacy(`server/discover offered only ${offered.join(", ")}`);
  return new McpError("protocol", `${label}: server/discover: ${info.message}`);
}

/**
 * -32022 is the one modern error that names versions: one in common proves a modern server (the client
 * has already retried with it), never a fallback; a list of legacy versions only means legacy.
 */
function judgeUnsupportedVersion(error: McpError): ProbeVerdict | McpError {
  const offered = readSupportedVersions(error.data);
  if (offered === undefined) return legacy(`server/discover answered ${error.code} without a list of supported versions`);
  if (SUPPORTED_VERSIONS.some((version) => offered.includes(version))) return error;
  if (offered.some(isLegacyVersion)) return legacy(`server/discover answered ${error.code} offering only ${offered.join(", ")}`);
  return error;
}

/** A probe that failed: what the failure says about the era, or the failure itself when it says nothing. */
export function judgeProbeFailure(error: McpError, transport: "stdio" | "http"): ProbeVerdict | McpError {
  // "HTTP 401/403 ⇒ auth error (never era evidence); HTTP 5xx ⇒ error" (the TS SDK's probe classifier).
  const status = error.httpStatus;
  if (status === 401 || status === 403 || (status !== undefined && status >= 500)) return error;
  switch (error.kind) {
    case "server":
      if (error.code === UNSUPPORTED_PROTOCOL_VERSION) return judgeUnsupportedVersion(error);
      return legacy(`server/discover answered error ${String(error.code)}`);
    case "protocol":
      // An unparseable reply, or a 400/404 without a modern error body.
      return legacy(`server/discover got no modern answer: ${error.message}`);
    case "timeout":
      // "No answer within a timeout ⇒ legacy" is a stdio rule; over HTTP a timeout proves nothing.
      return transport === "stdio" ? legacy(`server/discover got no answer: ${error.message}`) : error;
    case "closed":
      return transport === "stdio" ? legacy(`the server exited on server/discover: ${error.message}`, true) : error;
    case "broken":
    case "unreachable":
    case "aborted":
      return error;
    default: {
      const unknown: never = error.kind;
      throw new Error(`unknown error kind ${String(unknown)}`);
    }
  }
}
