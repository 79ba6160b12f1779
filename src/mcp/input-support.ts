// Which kinds of input request mca can answer, and the `clientCapabilities` that say exactly that: a server
// "MUST NOT include an input request kind the client did not declare" (spec §3), so we declare no more.
import type { JsonObject } from "./jsonrpc.js";
import type { InputRequest } from "./input-request.js";

export interface InputSupport {
  readonly elicitationForm?: boolean;
  readonly elicitationUrl?: boolean;
  /** Plain sampling only: mca never declares `sampling.tools`. */
  readonly sampling?: boolean;
  readonly roots?: boolean;
}

/** What a client that answers nothing declares: `{}`, "no optional capabilities". */
export const NO_INPUT_SUPPORT: InputSupport = {};

/** The `clientCapabilities` for `support`; each present value is an object, never `true`. */
export function clientCapabilities(support: InputSupport = NO_INPUT_SUPPORT): JsonObject {
  const capabilities: JsonObject = {};
  const elicitation: JsonObject = {};
  // `elicitation: {}` would mean form only; the modes are named so that the declaration reads as meant.
  if (support.elicitationForm === true) elicitation.form = {};
  if (support.elicitationUrl === true) elicitation.url = {};
  if (Object.keys(elicitation).length > 0) capabilities.elicitation = elicitation;
  if (support.roots === true) capabilities.roots = {};
  if (support.sampling === true) capabilities.sampling = {};
  return capabilities;
}

/** Why `request` is outside what was declared, or undefined when it may be answered. */
export function undeclaredReason(request: InputRequest, support: InputSupport): string | undefined {
  switch (request.kind) {
    case "elicit-form":
      return support.elicitationForm === true ? undefined : "a form elicitation, and mca did not declare elicitation.form";
    case "elicit-url":
      return support.elicitationUrl === true ? undefined : "a URL elicitation, and mca did not declare elicitation.url";
    case "sampling":
      if (support.sampling !== true) return "sampling, and mca did not declare sampling";
      return request.usesTools ? "sampling with tools, and mca did not declare sampling.tools" : undefined;
    case "roots":
      return support.roots === true ? undefined : "the roots list, and mca did not declare roots";
    default: {
      const unknown: never = request;
      throw new Error(`unknown input request ${JSON.stringify(unknown)}`);
    }
  }
}
