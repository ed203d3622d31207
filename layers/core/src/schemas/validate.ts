import * as v from 'valibot';
import { validationError } from '../errors/api-error.ts';

/** One valibot issue in words: the field at fault (a dotted path) and what is wrong with it. */
export const describeIssue = (issue: v.BaseIssue<unknown>): string => {
  const path = v.getDotPath(issue);
  // An unknown key of a strict object: the spec rejects unsupported input instead of dropping it.
  if (issue.expected === 'never' && path) return `\`${path}\` is not a supported field.`;
  const where = path ? `\`${path}\`` : 'The request body';
  return `${where}: ${issue.message}`;
};

/** Parses `input` with `schema`; a failure is 422 validation_error naming each field at fault. */
export const validate = <S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> => {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return result.output;
  const seen = new Set<string>();
  const messages = result.issues.map(describeIssue).filter((m) => (seen.has(m) ? false : (seen.add(m), true)));
  throw validationError(messages.slice(0, 5).join(' '));
};
