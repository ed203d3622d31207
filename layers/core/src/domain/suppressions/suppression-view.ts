import type { Suppression } from './suppression-store.ts';

/** The wire suppression. */
export const suppressionView = (s: Suppression) => ({
  object: 'suppression' as const,
  id: s.id,
  email: s.email,
  origin: s.origin,
  source_id: s.sourceId,
  created_at: s.createdAt,
});
