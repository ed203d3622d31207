import { SMTP_REPLY } from './catalog.ts';
import type { ApiError } from './api-error.ts';

/** One SMTP reply line: the basic code and the text, which starts with the enhanced status code. */
export interface SmtpReply {
  readonly code: number;
  /** `<enhanced code> <error name>: <message>`, one line. */
  readonly text: string;
}

/**
 * The SMTP reply for a refusal: the catalog's code and enhanced status code, then the API's
 * error name and message, so an SMTP client's log reads like the API's error body
 * (`550 5.7.1 restricted_api_key: ...`). A Retry-After becomes a sentence of the text.
 */
export const toSmtpReply = (error: ApiError): SmtpReply => {
  const { code, enhanced } = SMTP_REPLY[error.name];
  const retryAfter = error.headers['Retry-After'];
  const message = error.message
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .replace(/ Retry after the Retry-After header's seconds\.?/, '');
  return { code, text: `${enhanced} ${error.name}: ${message}${retryAfter ? ` Retry in ${retryAfter} s.` : ''}` };
};
