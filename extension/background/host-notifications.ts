import type { z } from 'zod';
import {
  hostNotifications,
  type HostNotification,
  type HostNotificationParams,
} from '../../protocol/methods';
import type { Log } from './request-table';

/**
 * Typed subscriptions to the host's notifications. Params are validated against the method
 * table before any handler sees them; an invalid notification is logged and dropped, and a
 * throwing handler does not keep the others from running.
 */

const notificationSchemas: {
  readonly [N in HostNotification]: z.ZodType<HostNotificationParams<N>>;
} = hostNotifications;

export type NotificationHandler<N extends HostNotification> = (
  params: HostNotificationParams<N>,
) => void;

export function isHostNotification(method: string): method is HostNotification {
  return Object.hasOwn(hostNotifications, method);
}

export class HostNotifications {
  private readonly listeners: { [N in HostNotification]: Set<NotificationHandler<N>> } = {
    'notifications/servers/changed': new Set(),
    'notifications/tools/changed': new Set(),
    'notifications/progress': new Set(),
    'notifications/log': new Set(),
    'notifications/resources/changed': new Set(),
    'notifications/resources/updated': new Set(),
    'notifications/prompts/changed': new Set(),
    'notifications/elicitation/requested': new Set(),
    'notifications/elicitation/settled': new Set(),
  };

  constructor(
    private readonly log: Log,
    /** Sees every valid `notifications/progress` before the subscribers (the request table). */
    private readonly onProgress: (params: HostNotificationParams<'notifications/progress'>) => void,
  ) {}

  on<N extends HostNotification>(method: N, handler: NotificationHandler<N>): () => void {
    const set = this.listeners[method];
    set.add(handler);
    return () => set.delete(handler);
  }

  // N correlates the schema with the handlers' parameter type, which a union method cannot do.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
  dispatch<N extends HostNotification>(method: N, params: unknown): void {
    const parsed = notificationSchemas[method].safeParse(params);
    if (!parsed.success) {
      const where = parsed.error.issues.map((i) => i.path.join('.') || '(root)').join(', ');
      this.log('warn', `dropped an invalid ${method} from the host (at ${where})`);
      return;
    }
    if (method === 'notifications/progress') {
      // Same params, parsed again under the concrete type: N does not narrow on a comparison.
      const progress = notificationSchemas['notifications/progress'].safeParse(params);
      if (progress.success) this.onProgress(progress.data);
    }
    for (const handler of [...this.listeners[method]]) {
      try {
        handler(parsed.data);
      } catch (error) {
        this.log('error', `a ${method} handler threw: ${String(error)}`);
      }
    }
  }
}
