/** A message for a worker queue. */
export interface QueueMessage {
  readonly body: unknown;
  /** Seconds before the message becomes visible (0 to 900). */
  readonly delaySeconds?: number;
}

/** The worker queues (SQS on AWS and locally). */
export interface JobQueue {
  /** Sends messages to the queue at `queueUrl`, in batches of ten. */
  send(queueUrl: string, messages: readonly QueueMessage[]): Promise<void>;
}
