import { getDeps } from '@mailstack/core/runtime/deps';
import { releaseParkedEmails } from '@mailstack/core/domain/quotas/release-parked-emails';

/** Every minute: release emails parked past the daily cap once their UTC day is over. */
export const handler = async (): Promise<{ released: number }> => releaseParkedEmails(getDeps());
