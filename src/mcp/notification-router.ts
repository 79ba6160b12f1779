// Sends each server notification to the call it belongs to: progress by its `progressToken`; log
// messages to the calls in flight that asked for them (they carry no request id). The rest goes to
// the client-wide listener.
import type { JsonRpcNotification } from "./jsonrpc.js";

export type NotificationListener = (notification: JsonRpcNotification) => void;

export interface CallSubscription {
  readonly progressToken?: string | number;
  /** The call set `io.modelcontextprotocol/logLevel`, so `notifications/message` may be about it. */
  readonly wantsLogs: boolean;
}

export interface NotificationRouter {
  /** Routes this call's notifications to `listener` until the returned function is called. */
  attach(subscription: CallSubscription, listener: NotificationListener): () => void;
  route(notification: JsonRpcNotification): void;
}

export function createNotificationRouter(fallback: NotificationListener = () => undefined): NotificationRouter {
  const byToken = new Map<string | number, NotificationListener>();
  const logListeners = new Set<NotificationListener>();

  function attach(subscription: CallSubscription, listener: NotificationListener): () => void {
    // A wrapper per attachment, so the same listener attached twice is detached once per call.
    const own: NotificationListener = (notification) => listener(notification);
    const { progressToken, wantsLogs } = subscription;
    if (progressToken !== undefined) byToken.set(progressToken, own);
    if (wantsLogs) logListeners.add(own);
    return () => {
      if (progressToken !== undefined && byToken.get(progressToken) === own) byToken.delete(progressToken);
      logListeners.delete(own);
    };
  }

  function route(notification: JsonRpcNotification): void {
    if (notification.method === "notifications/progress") {
      const token = notification.params?.progressToken;
      const listener = typeof token === "string" || typeof token === "number" ? byToken.get(token) : undefined;
      (listener ?? fallback)(notification);
      return;
    }
    if (notification.method === "notifications/message" && logListeners.size > 0) {
      for (const listener of [...logListeners]) listener(notification);
      return;
    }
    fallback(notification);
  }

  return { attach, route };
}
