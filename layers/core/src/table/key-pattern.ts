/**
 * The pattern of a partition key, as keys.ts builds it: the words of the key kept, every value in
 * it (an id, a date, a number, a region, a name) replaced by a placeholder named after the word
 * before it (`TEAM#<t>#USAGE#<day>`, `PACE#<region>#CALLS#<rate>`). An index partition keeps its
 * index (`gsi1:TEAM#<t>#EMAILS#<shard>`). The hot-key map groups requests by it.
 */
export const keyPattern = (partition: string): string => {
  const colon = partition.indexOf(':');
  const index = colon > 0 && /^gsi\d+$/.test(partition.slice(0, colon)) ? partition.slice(0, colon + 1) : '';
  const segments = partition.slice(index.length).split('#');
  return (
    index +
    segments.map((segment, i) => (isWord(segment) ? segment : `<${placeholder(segment, segments[i - 1])}>`)).join('#')
  );
};

/** A word of a key (upper-case letters), as opposed to a value in it. */
const isWord = (segment: string): boolean => /^[A-Z][A-Z_]*$/.test(segment);

/** Placeholders named after the word a value follows. */
const AFTER: Readonly<Record<string, string>> = {
  TEAM: 't',
  PACE: 'region',
  REGION: 'region',
  CALLS: 'rate',
  WEBHOOK: 'w',
  WHFLIGHT: 'w',
  WHRATE: 'w',
  EMAILS: 'shard',
  EVENTS: 'shard',
  SEND: 'shard',
  PARKED: 'shard',
  EVENT: 'shard',
  BCASTLANE: 'region',
  USER: 'u',
  MBOX: 'm',
  RATE: 'minute',
  DOMAINRATE: 'hour',
  SHARD: 'shard',
  SLOT: 'slot',
};

const placeholder = (value: string, before: string | undefined): string => {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return 'day';
  if (/^\d{4}-\d{2}$/.test(value)) return 'month';
  if (/^\d{4}-\d{2}-\d{2}T\d{2}/.test(value)) return 'hour';
  // A value after another value (`WHRATE#<w>#<second>`): by its form.
  if (before !== undefined && !isWord(before)) return /^\d{9,}$/.test(value) ? 'second' : 'n';
  const named = before !== undefined ? AFTER[before] : undefined;
  if (named) return named;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-/.test(value)) return 'id';
  if (/^[0-9a-f]{64}$/.test(value)) return 'hash';
  if (/^\d{9,}$/.test(value)) return 'second';
  if (/^\d+$/.test(value)) return 'n';
  return before ? before.toLowerCase() : 'id';
};
