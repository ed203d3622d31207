import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { runSendJobs } from './send-jobs.ts';

/**
 * The send worker, on new jobs and on those that came back: each SendJob to the provider; a job
 * that waits (its place booked ahead, a retry) goes on the later queue with its delay.
 */
export const handler = (event: SQSEvent): Promise<SQSBatchResponse> =>
  runSendJobs(event, (config) => config.SEND_LATER_QUEUE_URL || config.SEND_QUEUE_URL);
