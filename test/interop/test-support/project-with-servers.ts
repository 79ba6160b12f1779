// A temporary project whose `servers.json` names the given MCP servers, made before the suite's tests and
// removed after them: the real CLI runs there with `--mcp-config servers.json`.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createTempProject, type CliRun, type TempProject } from "../../../src/cli/test-support/run-cli.js";

export interface ProjectWithServers {
  /** Runs mca in the project with the servers' config added to `args`. */
  run(args: readonly string[], env?: Readonly<Record<string, string>>): Promise<CliRun>;
  readonly dir: () => string;
}

export function useProjectWithServers(mcpServers: Readonly<Record<string, unknown>>): ProjectWithServers {
  let project: TempProject | undefined;
  let configFile = "";
  beforeAll(async () => {
    project = await createTempProject();
    configFile = join(project.dir, "servers.json");
    await writeFile(configFile, JSON.stringify({ mcpServers }));
  });
  afterAll(async () => {
    await project?.remove();
  });
  const made = (): TempProject => {
    if (project === undefined) throw new Error("the project is made before the suite's tests");
    return project;
  };
  return {
    run: (args, env) => made().run([...args, "--mcp-config", configFile], "", env),
    dir: () => made().dir,
  };
}
