// Roots per server (https://modelcontextprotocol.io/specification/2025-11-25/client/roots): what one server is
// told it may work in. A config's `"roots": [...]` is what that server's `roots/list` is answered; `"roots":
// false` declares no roots capability to it at all, so that a server which keeps its own folders (such as
// server-filesystem) is left with them; absent, the responder's answer (the project folder) stands.
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import { isAbandon, type InputAskContext, type InputRequest, type InputResponder, type InputSupport } from "./input.js";
import type { JsonObject } from "./jsonrpc.js";
import type { McpServerConfig, ServerRoots } from "./server-spec.js";

/** A `ListRootsResult`: each folder as a `file://` URI, named by its last segment. */
export function rootsResult(folders: readonly string[]): JsonObject {
  return { roots: folders.map((folder) => ({ uri: pathToFileURL(folder).href, name: basename(folder) })) };
}

/** What mca declares to one server: the responder's support, without roots when its config says `"roots": false`. */
export function serverSupport(support: InputSupport, roots: ServerRoots | undefined): InputSupport {
  return roots === false ? { ...support, roots: false } : support;
}

type Answer = Record<string, unknown> | { readonly abandon: string };
type ServerAskContext = InputAskContext & { readonly server: string };

/**
 * The requests of one round answered with the server's own roots: its `roots` requests from the config's
 * list, the others by the responder; a `roots` request from a server told of none is refused.
 */
async function answerWithRoots(responder: InputResponder, roots: ServerRoots | undefined, requests: Record<string, InputRequest>, context: ServerAskContext): Promise<Answer> {
  if (roots === undefined) return responder.answer(requests, context);
  const asked = Object.entries(requests);
  if (roots === false && asked.some(([, request]) => request.kind === "roots")) {
    return { abandon: `the server asked for the roots list, and mca declared no roots to it (its config says "roots": false)` };
  }
  const others = asked.filter(([, request]) => request.kind !== "roots");
  const answered: Answer = others.length === 0 ? {} : await responder.answer(Object.fromEntries(others), context);
  if (isAbandon(answered)) return answered;
  // fromEntries makes own properties, so a key such as "__proto__" stays an ordinary key.
  return Object.fromEntries(asked.map(([key, request]) => [key, request.kind === "roots" && roots !== false ? rootsResult(roots) : answered[key]]));
}

/** The responder as one server meets it: its own roots declared and answered. */
export function serverResponder(responder: InputResponder, spec: McpServerConfig): InputResponder {
  return {
    support: serverSupport(responder.support, spec.roots),
    answer: (requests, context) => answerWithRoots(responder, spec.roots, requests, context),
  };
}

/**
 * The responder for every server of a config: each answer goes out with the roots of the server that asked
 * (the alias in its context). What it declares stays the responder's; each server's own declaration is
 * serverSupport's, and a server that asks beyond it is refused here.
 */
export function rootsPerServer(responder: InputResponder, servers: readonly McpServerConfig[]): InputResponder {
  const byAlias = new Map(servers.map((server) => [server.alias, server.roots]));
  return {
    support: responder.support,
    answer: (requests, context) => answerWithRoots(responder, byAlias.get(context.server), requests, context),
  };
}
