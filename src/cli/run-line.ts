// One line of input, in any mode: a slash command from the table, or a prompt for the model.
import { findSlashCommand, type CommandContext, type CommandOutcome } from "./slash-commands.js";

export type LineContext = CommandContext;

/** Never rejects: a bug surfacing as an exception is reported and the line counts as failed. */
export async function runLine(line: string, context: LineContext): Promise<CommandOutcome> {
  const text = line.trim();
  if (text === "") return "ok";
  try {
    return text.startsWith("/") ? await runSlashCommand(text, context) : await runPrompt(text, context);
  } catch (error) {
    context.warn(`error: ${error instanceof Error ? error.message : String(error)}`);
    return "failed";
  }
}

async function runSlashCommand(text: string, context: LineContext): Promise<CommandOutcome> {
  const match = /^\/(\S*)\s*([\s\S]*)$/.exec(text);
  const name = match?.[1] ?? "";
  const command = findSlashCommand(name);
  if (command === undefined) {
    context.warn(`unknown command /${name} (try /help)`);
    return "failed";
  }
  return command.run(context, match?.[2] ?? "");
}

/** A prompt succeeds when its turn ends normally: aborted, limited or failed turns count as failed. */
async function runPrompt(text: string, context: LineContext): Promise<CommandOutcome> {
  return (await context.agent.prompt(text, context.signal)) === "done" ? "ok" : "failed";
}
