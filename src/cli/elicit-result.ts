// The client's answer to an `elicitation/create` request (ElicitResult, spec §3): accept with the form's
// content, decline ("no"), or cancel (dismissed without a choice). It carries no `resultType`.
import type { FieldValue } from "./form-fields.js";

export type ElicitResult =
  | { readonly action: "accept"; readonly content?: Readonly<Record<string, FieldValue>> }
  | { readonly action: "decline" }
  | { readonly action: "cancel" };

export const ELICIT_ACTIONS = ["accept", "decline", "cancel"] as const;
export type ElicitAction = (typeof ELICIT_ACTIONS)[number];
