import { getDeps } from '@mailstack/core/runtime/deps';
import { resumeEraseJobs } from '@mailstack/core/domain/contacts/erase-history';

/** Every five minutes: queue again the erase jobs still running (a lost message, a crashed worker). */
export const handler = async (): Promise<{ resumed: number }> => resumeEraseJobs(getDeps());
