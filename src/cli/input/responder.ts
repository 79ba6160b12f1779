// mca's answers to MCP `input_required` requests, and exactly the capabilities that promise them (a server
// "MUST NOT include an input request kind the client did not declare",
// https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr): in the chat everything is
// asked in the terminal; without one, only what needs nobody's consent is declared.
import type { Model } from "../../kernel/index.js";
import { rootsResult, type InputAskContext, type InputRequest, type InputResponder, type InputSupport } from "../../mcp/index.js";
import type { TerminalLender } from "../terminal.js";
import { untrustedText } from "../untrusted-text.js";
import { findAnswer, type InputAnswers } from "./answers-file.js";
import { askFormElicitation, askUrlElicitation, type Asking } from "./elicitation.js";
import { checkFormContent, readFormFields, type ElicitResult } from "./form.js";
import { answerSampling } from "./sampling.js";

// In the chat: forms, URLs and sampling are asked in the terminal, roots are the project folder. With no
// terminal (pipe mode, -p, `mca call`): forms come from `--input-responses` or are declined with a message
// naming that flag; roots are answered; URLs and sampling are not declared, since nobody could consent.
const TERMINAL_SUPPORT: InputSupport = { elicitationForm: true, elicitationUrl: true, sampling: true, roots: true };
const NO_TERMINAL_SUPPORT: InputSupport = { elicitationForm: true, roots: true };

export interface CliInputResponderDeps {
  /** Whether a person can be asked in this run (the interactive chat); decides what is declared. */
  readonly interactive: boolean;
  /**
   * Declare what the chat declares even without a person to ask (`mca mcp pin`): a server's tool list may
   * depend on what the client declares, and a pin must record the tools the chat will see. What cannot be
   * asked is declined or abandoned as without a terminal.
   */
  readonly declareAsChat?: boolean;
  readonly projectDir: string;
  readonly answers?: InputAnswers;
  /** One line for the user about an answer given without asking them (main sends it to stderr). */
  readonly notify: (line: string) => void;
}

/** Its terminal and model arrive after the servers are mounted: the chat lends one, the session makes the other. */
export interface CliInputResponder extends InputResponder {
  attachTerminal(lend: TerminalLender): void;
  attachModel(model: Model): void;
}

type OneAnswer = { readonly kind: "answer"; readonly value: unknown } | { readonly kind: "abandon"; readonly reason: string } | { readonly kind: "interrupted" };

type AskContext = InputAskContext & { readonly server: string };

function answered(value: unknown): OneAnswer {
  return { kind: "answer", value };
}

function fromTerminal(result: ElicitResult | undefined): OneAnswer {
  return result === undefined ? { kind: "interrupted" } : answered(result);
}

export function createCliInputResponder(deps: CliInputResponderDeps): CliInputResponder {
  let lend: TerminalLender | undefined;
  let model: Model | undefined;
  const { notify } = deps;

  const declined = (message: string, context: AskContext, why: string): OneAnswer => {
    notify(untrustedText(`mcp: ${context.server} asked for input for ${context.tool} (${JSON.stringify(untrustedText(message))}): declined, ${why}`));
    return answered({ action: "decline" });
  };

  /** A prepared answer is checked against the form it answers: one that does not fit is not sent. */
  const fromFile = (key: string, request: Extract<InputRequest, { kind: "elicit-form" }>, context: AskContext): OneAnswer | undefined => {
    const { answers } = deps;
    const found = answers === undefined ? undefined : findAnswer(answers, context.server, context.tool, key);
    if (answers === undefined || found === undefined) return undefined;
    const fields = readFormFields(request.requestedSchema);
    const problem = fields instanceof Error ? fields.message : found.answer.action === "accept" ? checkFormContent(fields, found.answer.content ?? {}) : undefined;
    if (problem !== undefined) return declined(request.message, context, `as the answer at ${found.place} in ${answers.file} does not fit the form: ${untrustedText(problem)}`);
    notify(untrustedText(`mcp: ${context.server} asked for input for ${context.tool}: answered "${found.answer.action}" from ${found.place} in ${answers.file}`));
    return answered(found.answer);
  };

  const answerOne = async (key: string, request: InputRequest, context: AskContext): Promise<OneAnswer> => {
    const asking: Asking = { server: context.server, tool: context.tool };
    switch (request.kind) {
      case "roots":
        // `roots/list` of a server whose config names none: the folder mca works in, and nothing else.
        return answered(rootsResult([deps.projectDir]));
      case "elicit-form": {
        const prepared = fromFile(key, request, context);
        if (prepared !== undefined) return prepared;
        if (lend !== undefined) return fromTerminal(await lend(({ asker, chalk }) => askFormElicitation(request, asking, asker, chalk)));
        const place = `${context.server}.${context.tool}.${key}`;
        return declined(request.message, context, `as there is no terminal to ask in; to answer it, run with --input-responses <file> holding an answer at ${place}`);
      }
      case "elicit-url":
        if (lend !== undefined) return fromTerminal(await lend(({ asker, chalk }) => askUrlElicitation(request, asking, asker, chalk)));
        return declined(request.message, context, "as there is no terminal to ask in");
      case "sampling": {
        if (lend === undefined || model === undefined) return { kind: "abandon", reason: "there is no terminal to ask for consent to sampling" };
        const sampled = await answerSampling(request, asking, { lend, model, signal: context.signal ?? new AbortController().signal });
        if (sampled.kind === "result") return answered(sampled.result);
        return sampled;
      }
      default: {
        const unknown: never = request;
        throw new Error(`unknown input request ${JSON.stringify(unknown)}`);
      }
    }
  };

  return {
    support: deps.interactive || deps.declareAsChat === true ? TERMINAL_SUPPORT : NO_TERMINAL_SUPPORT,
    async answer(requests, context) {
      const responses: Array<[string, unknown]> = [];
      // One question at a time, in the server's order: the terminal has one user.
      for (const [key, request] of Object.entries(requests)) {
        const one = await answerOne(key, request, context);
        switch (one.kind) {
          case "answer":
            responses.push([key, one.value]);
            break;
          case "abandon":
            return { abandon: one.reason };
          case "interrupted":
            return { abandon: "the user interrupted the question" };
          default: {
            const unknown: never = one;
            throw new Error(`unknown answer ${JSON.stringify(unknown)}`);
          }
        }
      }
      // fromEntries makes own properties, so a key such as "__proto__" stays an ordinary key.
      return Object.fromEntries(responses);
    },
    attachTerminal(lender) {
      lend = lender;
    },
    attachModel(chosen) {
      model = chosen;
    },
  };
}
