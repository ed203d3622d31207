import { v7 } from 'uuid';

/** The id source; injected so tests can pin ids. */
export interface IdGenerator {
  /** A new time-ordered UUIDv7. */
  next(): string;
}

/** UUIDv7 ids: time-ordered, so an id order is a creation order. */
export const uuidV7: IdGenerator = { next: () => v7() };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a string shaped as a UUID (any version): an id rather than, say, an email address. */
export const isUuid = (value: string): boolean => UUID.test(value);
