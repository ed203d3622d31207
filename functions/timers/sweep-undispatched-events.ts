import { getDeps } from '@mailstack/core/runtime/deps';
import { sweepUndispatchedEvents } from '@mailstack/core/domain/webhooks/sweep-undispatched-events';

/** Every minute: queue for webhook fan-out the events stored but never queued. */
export const handler = async (): Promise<{ requeued: number }> => sweepUndispatchedEvents(getDeps());
