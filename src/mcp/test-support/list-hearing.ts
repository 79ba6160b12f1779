// Which way an era's rules chose to hear list changes, read without a client around them.
import type { ListHearing } from "../client.js";
import type { ListKind } from "../list-changes.js";

export function hearingOf(watch: (onChange: (kind: ListKind) => void, hearing: ListHearing) => void): string[] {
  const ways: string[] = [];
  watch(() => undefined, { byNotification: () => ways.push("notification"), bySubscription: () => ways.push("subscription") });
  return ways;
}
