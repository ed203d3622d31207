import { getDeps } from '@mailstack/core/runtime/deps';
import { sweepStuckEmails } from '@mailstack/core/domain/emails/pipeline/sweep-stuck-emails';

/** Every minute: re-queue emails past due and still before the provider. */
export const handler = async (): Promise<{ requeued: number }> => sweepStuckEmails(getDeps());
