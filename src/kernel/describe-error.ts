// A thrown value as one line of text for the user or the model (tools and models may throw anything).

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message === "" ? error.name : error.message;
  return String(error);
}
