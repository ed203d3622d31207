import { v7 } from 'uuid';

/** The id source; injected so tests can pin ids. */
export interface IdGenerator {
  /** A new time-ordered UUIDv7. */
  next(): string;
}

/** UUIDv7 ids: time-ordered, so an id order is a creation order. */
export const uuidV7: IdGenerator = { next: () => v7() };
