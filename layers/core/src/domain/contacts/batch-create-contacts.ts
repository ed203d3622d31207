import type { Deps } from '../../runtime/deps.ts';
import type { Team } from '../teams/team.ts';
import { keys } from '../../table/keys.ts';
import { batchGetItems } from '../../table/ops.ts';
import { isApiError, validationError } from '../../errors/api-error.ts';
import { validate } from '../../schemas/validate.ts';
import { CreateContactRequest } from '../../schemas/contacts.ts';
import type { BatchMode } from '../../schemas/batch.ts';
import { checkBatch, mapPooled } from '../batch.ts';
import { findContact } from './contact.ts';
import { checkPropertyValues, propertyTypes } from './contact-property.ts';
import { contactCapError, insertContacts, releaseContactSlots, reserveContactSlots } from './write-contact.ts';
import { updateContact } from './update-contact.ts';

type Row = {
  object: 'contact';
  index: number;
  id: string | null;
  status: 'created' | 'updated' | 'skipped' | 'failed';
};

/**
 * POST /contacts/batch: 1 to 1,000 contacts, answered in request order. Existing emails are skipped, or
 * updated with on_conflict=upsert. Past the plan's contact cap only the new items fail.
 * Strict mode refuses the whole batch on any invalid item; permissive reports them by index.
 */
export const batchCreateContacts = async (
  deps: Deps,
  team: Team,
  raw: readonly unknown[],
  options: { upsert: boolean; mode: BatchMode },
) => {
  const declared = await propertyTypes(deps, team.id);
  const seen = new Map<string, number>();
  const checked = await checkBatch(raw, options.mode, (item, index) => {
    const input = validate(CreateContactRequest, item);
    checkPropertyValues(declared, input.properties, `[${index}].properties`);
    const key = input.email.toLowerCase();
    if (seen.has(key))
      throw validationError(`the email ${input.email} appears earlier in this batch (item ${seen.get(key)}).`);
    seen.set(key, index);
    return input;
  });
  const errors = [...checked.errors];
  const parsed: (CreateContactRequest | undefined)[] = raw.map(() => undefined);
  for (const { index, value } of checked.valid) parsed[index] = value;
  const emails = parsed.flatMap((p) => (p ? [p.email] : []));
  const guards = new Map(
    (
      await batchGetItems(
        deps,
        emails.map((e) => keys.contact.emailGuard(team.id, e)),
      )
    ).map((g) => [g.email as string, g.contact_id as string]),
  );
  const fresh = parsed.flatMap((p, i) => (p && !guards.has(p.email.toLowerCase()) ? [i] : []));
  const granted = await reserveContactSlots(deps, team, fresh.length);
  const allowed = new Set(fresh.slice(0, granted));
  const capError = contactCapError(team);
  let unused = 0;
  // The new contacts are written together, many to a transaction; what they came to, by index.
  const newIndexes = [...allowed];
  const inserted = new Map(
    (
      await insertContacts(
        deps,
        team,
        newIndexes.map((i) => parsed[i]!),
        'api',
      )
    ).map((r, k) => [newIndexes[k]!, r]),
  );

  const data: Row[] = await mapPooled(parsed, async (p, index): Promise<Row> => {
    const row = (status: Row['status'], id: string | null): Row => ({ object: 'contact', index, id, status });
    if (!p) return row('failed', null);
    try {
      const existingId = guards.get(p.email.toLowerCase());
      if (existingId === undefined) {
        const made = inserted.get(index);
        if (!made) {
          errors.push({ index, message: capError.message });
          return row('failed', null);
        }
        if ('contact' in made) {
          if (!made.error) return row('created', made.contact.id);
          errors.push({ index, message: made.error.message });
          return row('failed', null);
        }
        unused++;
        if ('error' in made) {
          errors.push({ index, message: made.error.message });
          return row('failed', null);
        }
        const raced = await findContact(deps, team.id, p.email);
        if (!options.upsert) return row('skipped', raced?.id ?? null);
        return row('updated', (await updateContact(deps, team.id, p.email, p, 'api', true)).id);
      }
      if (!options.upsert) return row('skipped', existingId);
      const before = await findContact(deps, team.id, existingId);
      const after = await updateContact(deps, team.id, existingId, p, 'api', true);
      return row(before && after.updatedAt === before.updatedAt ? 'skipped' : 'updated', after.id);
    } catch (error) {
      if (!isApiError(error)) throw error;
      errors.push({ index, message: error.message });
      return row('failed', null);
    }
  });
  await releaseContactSlots(deps, team.id, unused);
  if (options.mode === 'strict' && errors.length > 0 && data.every((r) => r.status === 'failed')) throw capError;
  const counts = { created: 0, updated: 0, skipped: 0, failed: 0 };
  for (const r of data) counts[r.status]++;
  errors.sort((a, b) => a.index - b.index);
  // `data` lists the items written or skipped (spec §4: created, updated, skipped), each with its
  // index; a failed item is counted, and named in `errors` in permissive mode only.
  const written = data.filter((r): r is Row & { status: Exclude<Row['status'], 'failed'> } => r.status !== 'failed');
  return { object: 'list' as const, data: written, counts, ...(options.mode === 'permissive' ? { errors } : {}) };
};
