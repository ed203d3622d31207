import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { runSendJobs } from './send-jobs.ts';

/** The send worker: each SendJob to the provider; retries go back on the queue with a delay. */
export const handler = (event: SQSEvent): Promise<SQSBatchResponse> =>
  runSendJobs(event, (config) => config.SEND_QUEUE_URL);
