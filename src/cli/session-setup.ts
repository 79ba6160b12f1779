// Everything an agent needs besides a mode's approval and rendering: rules, model, tools, the system
// prompt, snapshots, the transcript and (with --resume) the earlier history. Configuration problems
// come back as an Error for main to print and exit 2 on.
import { createAgent } from "../kernel/index.js";
import type { Model } from "../kernel/index.js";
import type { Tool } from "../kernel/index.js";
import { loadLastSession, openTranscript } from "../session/index.js";
import { createSnapshotFiles } from "../session/index.js";
import { createLocalTools } from "../tools/index.js";
import { chooseModel, createChosenModel } from "./model-choice.js";
import type { CommonOptions } from "./program.js";
import type { AgentFactory } from "./session-io.js";
import { loadRules, settingsFiles } from "./settings.js";
import { systemPrompt } from "./system-prompt.js";

export interface SessionSetupDeps {
  readonly projectDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly options: CommonOptions;
  /** Names this run's transcript file; made by main, which may read the clock. */
  readonly sessionId: string;
  /** Tools mounted from MCP servers, next to the local ones. */
  readonly remoteTools: readonly Tool[];
  /** A stand-in tool for a name of an MCP server that never came up, so its call names the reason. */
  readonly findTool?: (name: string) => Tool | undefined;
  readonly warn: (text: string) => void;
  /** Whether to tell that the offline mock answers: not for `mca tools` / `mca call`, which never ask the model. */
  readonly announceModel: boolean;
}

export interface SessionSetup {
  readonly makeAgent: AgentFactory;
  /** The session's model, which also answers MCP servers' sampling requests the user consents to. */
  readonly model: Model;
  /** One line for the chat's first screen: model, tools, project. */
  readonly banner: string;
}

export async function setUpSession(deps: SessionSetupDeps): Promise<SessionSetup | Error> {
  const { projectDir, options } = deps;
  const rules = await loadRules(settingsFiles(projectDir, deps.env), options);
  if (rules instanceof Error) return rules;

  const choice = chooseModel(deps.env, options.model);
  if (deps.announceModel && choice.kind === "mock" && choice.notice !== null) deps.warn(choice.notice);
  const model = await createChosenModel(choice).catch(
    (error: unknown) => new Error(`cannot set up the model: ${error instanceof Error ? error.message : String(error)}`),
  );
  if (model instanceof Error) return model;

  const history = options.resume ? loadLastSession(projectDir) : null;
  if (options.resume && history === null) deps.warn("no earlier session in this project: starting a new one");
  const tools = [...createLocalTools(projectDir), ...deps.remoteTools];
  const snapshots = createSnapshotFiles(projectDir);
  let transcript;
  try {
    transcript = openTranscript(projectDir, deps.sessionId);
  } catch (error) {
    return new Error(`cannot open the session transcript in ${projectDir}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const system = systemPrompt(projectDir);

  const makeAgent: AgentFactory = (io) =>
    createAgent({
      model,
      tools,
      rules,
      system,
      approve: io.approve,
      snapshots,
      transcript,
      emit: io.emit,
      ...(history === null ? {} : { history }),
      ...(deps.findTool === undefined ? {} : { findTool: deps.findTool }),
    });
  const resumed = history === null ? "" : ` · resumed ${history.length} messages`;
  return { makeAgent, model, banner: `mca · model ${model.name} · ${tools.length} tools · ${projectDir}${resumed}` };
}
