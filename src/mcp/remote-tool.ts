// A tool as a server lists it (spec §4 "Tool definition"), kept verbatim: the schemas are never rewritten
// or dereferenced, because the model and the conformance suite must see exactly what the server sent.
import type { JsonSchema } from "../kernel/index.js";
import { isJsonObject, type JsonObject } from "./jsonrpc.js";

export interface RemoteToolInfo {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: JsonSchema;
  /** Any JSON Schema 2020-12, which may also be a boolean. */
  readonly outputSchema?: JsonSchema | boolean;
  /** The server's claims about its own tool: untrusted. */
  readonly annotations?: JsonObject;
  readonly _meta?: JsonObject;
}

export function parseRemoteTool(value: unknown): RemoteToolInfo | Error {
  if (!isJsonObject(value)) return new Error("a tool is not an object");
  const { name, title, description, inputSchema, outputSchema, annotations, _meta } = value;
  if (typeof name !== "string" || name === "") return new Error("a tool has no name");
  const invalid = (what: string): Error => new Error(`tool ${JSON.stringify(name)}: ${what}`);
  if (!isJsonObject(inputSchema)) return invalid("`inputSchema` is not an object");
  if (title !== undefined && typeof title !== "string") return invalid("`title` is not a string");
  if (description !== undefined && typeof description !== "string") return invalid("`description` is not a string");
  if (outputSchema !== undefined && !isJsonObject(outputSchema) && typeof outputSchema !== "boolean") {
    return invalid("`outputSchema` is not a schema");
  }
  if (annotations !== undefined && !isJsonObject(annotations)) return invalid("`annotations` is not an object");
  if (_meta !== undefined && !isJsonObject(_meta)) return invalid("`_meta` is not an object");
  return {
    name,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    ...(annotations === undefined ? {} : { annotations }),
    ...(_meta === undefined ? {} : { _meta }),
  };
}
