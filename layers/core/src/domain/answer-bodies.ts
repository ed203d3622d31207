import { MAX_ANSWER_BODIES_BYTES } from '../limits.ts';

/**
 * What a body takes of a Lambda's answer: a JSON string in the answer's body, which is itself a
 * JSON string in the Lambda's result (quotes, backslashes and newlines escaped twice).
 */
const answerBytes = (body: string | null): number =>
  body === null ? 0 : Buffer.byteLength(JSON.stringify(JSON.stringify(body)));

interface WithBodies {
  readonly html: string | null;
  readonly text: string | null;
}

/**
 * The items with the bodies one answer can carry (a Lambda answers at most 6 MB): in order, each
 * item's text then its html, kept while the bodies answered so far stay within
 * MAX_ANSWER_BODIES_BYTES; a body past it answers null, as an expired one does.
 */
export const bodiesWithinAnswer = <T extends WithBodies>(items: readonly T[]): T[] => {
  let left = MAX_ANSWER_BODIES_BYTES;
  const keep = (body: string | null): string | null => {
    const size = answerBytes(body);
    if (size > left) return null;
    left -= size;
    return body;
  };
  return items.map((item) => {
    const text = keep(item.text);
    const html = keep(item.html);
    return text === item.text && html === item.html ? item : { ...item, text, html };
  });
};

/** One item with the bodies one answer can carry (see bodiesWithinAnswer). */
export const bodyWithinAnswer = <T extends WithBodies>(item: T): T => bodiesWithinAnswer([item])[0]!;
