import { getDeps } from '@mailstack/core/runtime/deps';
import { sweepStuckEmails } from '@mailstack/core/domain/emails/pipeline/sweep-stuck-emails';

/** Every minute: re-queue emails stuck before the provider; release parked ones after midnight. */
export const handler = async (): Promise<{ requeued: number; released: number }> => sweepStuckEmails(getDeps());
