import * as v from 'valibot';
import type { Deps } from '../../runtime/deps.ts';
import type { AuthContext } from '../../http/auth.ts';
import { isApiError, type ApiError } from '../../errors/api-error.ts';
import { validate } from '../../http/validate.ts';
import { SendEmailRequest } from '../../schemas/emails.ts';
import { prepareEmail, type DomainCache, type PreparedEmail } from './prepare-email.ts';
import { acceptEmails } from './accept-emails.ts';
import { validateMessageId } from './rules/headers.ts';

/** Options of a send beyond the request body (the SMTP relay's message). */
export interface SendOptions {
  /** Keep this Message-ID instead of making one (checked like a header). */
  readonly messageId?: string;
}

/** POST /emails (and each SMTP relay message): one email through every send rule, stored and queued. */
export const sendEmail = async (deps: Deps, auth: AuthContext, input: SendEmailRequest, options: SendOptions = {}): Promise<{ id: string }> => {
  const messageId = options.messageId === undefined ? undefined : validateMessageId(options.messageId);
  const prepared = await prepareEmail(deps, auth, input);
  const [email] = await acceptEmails(deps, auth, [messageId === undefined ? prepared : { ...prepared, messageId }]);
  return { id: email!.id };
};

/**
 * POST /emails/batch. Strict: any invalid item refuses the whole batch with that item's error.
 * Permissive: invalid items are reported by index and the valid ones are sent. Quota refusals
 * answer once for the whole call.
 */
export const sendBatch = async (deps: Deps, auth: AuthContext, items: readonly unknown[], mode: 'strict' | 'permissive') => {
  const cache: DomainCache = new Map();
  const errors: { index: number; message: string }[] = [];
  const prepared: { index: number; email: PreparedEmail }[] = [];
  for (const [index, raw] of items.entries()) {
    try {
      const input = validate(SendEmailRequest, raw);
      prepared.push({ index, email: await prepareEmail(deps, auth, input, cache) });
    } catch (error) {
      if (!isApiError(error)) throw error;
      if (mode === 'strict' || ['team_suspended', 'restricted_api_key'].includes(error.name)) {
        throw Object.assign(error, { message: `Item ${index}: ${error.message}` }) as ApiError;
      }
      errors.push({ index, message: error.message });
    }
  }
  const emails = await acceptEmails(deps, auth, prepared.map((p) => p.email));
  const data = emails.map((e) => ({ id: e.id }));
  return mode === 'permissive' ? { data, errors } : { data };
};

/** The header that picks the batch validation mode. */
export const batchMode = (header: string | undefined): 'strict' | 'permissive' =>
  validate(v.optional(v.picklist(['strict', 'permissive'], '`x-batch-validation` must be `strict` or `permissive`.'), 'strict'), header?.toLowerCase());
