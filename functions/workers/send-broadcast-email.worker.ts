import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { runSendJobs } from './send-jobs.ts';

/** The broadcast send worker: each broadcast email's job at its slot, held to the broadcast share of the provider rate. */
export const handler = (event: SQSEvent): Promise<SQSBatchResponse> =>
  runSendJobs(event, (config) => config.BROADCAST_QUEUE_URL);
