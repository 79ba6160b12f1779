// marked-terminal 7 ships no types, and @types/marked-terminal describes version 6 (a Renderer class);
// version 7's `markedTerminal` returns a marked extension. Only what markdown.ts uses is declared.
declare module "marked-terminal" {
  import type { MarkedExtension } from "marked";

  export interface TerminalRendererOptions {
    readonly width?: number;
    readonly reflowText?: boolean;
    readonly tab?: number;
  }

  export function markedTerminal(options?: TerminalRendererOptions): MarkedExtension;
}
