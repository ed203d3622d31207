import * as v from 'valibot';
import { Deleted, Id, ObjectRef, Timestamp } from './common.ts';
import { validAddress } from '../domain/emails/rules/addresses.ts';

const Email = v.pipe(
  v.string('must be a string.'),
  v.trim(),
  v.check(validAddress, 'must be an email address such as jane@example.com.'),
);
const Emails = v.pipe(
  v.array(Email, 'must be an array of addresses.'),
  v.minLength(1, 'must hold 1 to 1000 addresses.'),
  v.maxLength(1000, 'must hold 1 to 1000 addresses.'),
);

export const AddSuppressionRequest = v.strictObject({ email: Email });
export const BatchAddSuppressionsRequest = v.strictObject({ emails: Emails });
export const BatchRemoveSuppressionsRequest = v.pipe(
  v.strictObject({
    emails: v.optional(Emails),
    ids: v.optional(
      v.pipe(
        v.array(v.pipe(v.string(), v.uuid('must be a suppression id.'))),
        v.minLength(1),
        v.maxLength(1000, 'must hold 1 to 1000 ids.'),
      ),
    ),
  }),
  v.check((b) => !!(b.emails || b.ids), 'Give `emails` or `ids` (1 to 1000).'),
  v.check(
    (b) => (b.ids?.length ?? 0) + (b.emails?.length ?? 0) <= 1000,
    'At most 1000 suppressions per call, `emails` and `ids` together.',
  ),
);
export const ListSuppressionsQuery = v.object({
  origin: v.optional(
    v.picklist(
      ['bounce', 'complaint', 'unsubscribe', 'manual'],
      '`origin` must be bounce, complaint, unsubscribe or manual.',
    ),
  ),
});

/** A suppression list entry. */
export const SuppressionObject = v.object({
  object: v.literal('suppression'),
  id: Id,
  email: v.string(),
  origin: v.picklist(['bounce', 'complaint', 'unsubscribe', 'manual']),
  source_id: v.nullable(Id),
  created_at: Timestamp,
});
export const BatchAddedSuppressions = v.object({ data: v.array(ObjectRef('suppression')) });
export const BatchRemovedSuppressions = v.object({ data: v.array(Deleted('suppression')) });
