/**
 * `GET /api/v1/push/key`, `POST /api/v1/push/subscriptions`, `GET /api/v1/push/subscriptions`
 * (admin) and `POST /api/v1/push/unsubscribe`: what a dashboard's service worker needs to be
 * woken by the daemon (docs/dashboard.md, "Notifications").
 * @module
 */
import { SpectermError } from '../../protocol/index.js';
import type { RouteHandlers } from '../contracts.js';
import type { PushSubscriptionsTable } from '../../store/index.js';
import type { PushService } from '../../daemon/push-service.js';

export function pushRoutes(push: PushService, subscriptions: PushSubscriptionsTable, now: () => number): RouteHandlers {
  const view = (s: { id: string; endpoint: string; device: string; createdAt: number }) => ({ id: s.id, endpoint_origin: new URL(s.endpoint).origin, device: s.device, created_at: s.createdAt });
  return {
    getPushKey: () => ({ public_key: push.publicKey }),
    subscribePush: (input, ctx) => {
      const refusal = push.refuseEndpoint(input.body.endpoint);
      if (refusal) throw new SpectermError({ code: 'PUSH_ENDPOINT_REFUSED', title: 'Push endpoint refused', detail: refusal, errors: [{ path: '/endpoint', code: 'PUSH_ENDPOINT_REFUSED', message: refusal }] });
      return view(subscriptions.upsert({ endpoint: input.body.endpoint, keys: input.body.keys, tokenId: ctx.principal.tokenId, device: ctx.principal.name, at: now() }));
    },
    listPushSubscriptions: () => ({ subscriptions: subscriptions.list().map(view) }),
    unsubscribePush: (input) => ({ removed: subscriptions.remove(input.body.endpoint) }),
  };
}
