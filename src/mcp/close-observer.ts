// Lets the owner of a connection hear when its transport dies, without the client growing a hook:
// a decorator that reports `onClose` and passes everything else through untouched.
import type { Transport } from "./transport.js";

export function observeClose(transport: Transport, onClose: (reason: Error) => void): Transport {
  return {
    kind: transport.kind,
    label: transport.label,
    start: (handlers) =>
      transport.start({
        onMessage: (message) => handlers.onMessage(message),
        onClose: (reason) => {
          onClose(reason);
          handlers.onClose(reason);
        },
      }),
    send: (message, options) => transport.send(message, options),
    cancel: (id, reason) => transport.cancel(id, reason),
    close: () => transport.close(),
  };
}
