/**
 * The base of every error the service throws on purpose: the API's refusals, the mailbox agent
 * API's and OAuth's, the provider's, and the domain's own. `catch (e) { if (e instanceof
 * MailstackError) ... }` tells a refusal from a fault, and an error that wraps another keeps it as
 * `cause` (logged with it). Each subclass keeps its own name, status and message.
 */
export class MailstackError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
  }
}
