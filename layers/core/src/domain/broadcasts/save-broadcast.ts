import { notDraftAnyMore } from './broadcast-view.ts';
import type { Deps } from '../../runtime/deps.ts';
import { ApiError, notFound, validationError } from '../../errors/api-error.ts';
import type { CreateBroadcastRequest } from '../../schemas/broadcasts.ts';
import { parseMailbox, parseMailboxList } from '../emails/rules/addresses.ts';
import { getSegment } from '../segments/segment.ts';
import { getTopic } from '../topics/topic.ts';
import { getTemplate } from '../templates/get-template.ts';
import { readBroadcast, type BroadcastItem } from '../../table/broadcasts.ts';

/** The 400 invalid_parameter for changing a broadcast that is no longer a draft, saying what to do instead. */
export const editRefused = (b: BroadcastItem) =>
  new ApiError(
    'invalid_parameter',
    `${notDraftAnyMore(b)}; only drafts can be changed. Duplicate it (POST /broadcasts/${b.id}/duplicate) and edit the copy.`,
  );

/** 422 naming the field for a segment or topic the team does not have, or a sender that is not an address. */
export const checkRefs = async (
  deps: Deps,
  teamId: string,
  input: {
    segment_id?: string | undefined;
    audience_id?: string | undefined;
    topic_id?: string | null | undefined;
    from?: string | undefined;
    reply_to?: string | string[] | null | undefined;
  },
) => {
  const segmentId = input.segment_id ?? input.audience_id;
  if (segmentId)
    await getSegment(deps, teamId, segmentId).catch(() => {
      throw validationError(`\`segment_id\`: this team has no segment ${segmentId}.`);
    });
  if (input.topic_id)
    await getTopic(deps, teamId, input.topic_id).catch(() => {
      throw validationError(`\`topic_id\`: this team has no topic ${input.topic_id}.`);
    });
  if (input.from) parseMailbox(input.from, 'from');
  if (input.reply_to) parseMailboxList(input.reply_to, 'reply_to');
};

/** The body a template gives a broadcast: its own copy (deleting the template later changes nothing). */
export const fromTemplate = async (
  deps: Deps,
  teamId: string,
  ref: NonNullable<CreateBroadcastRequest['template']>,
) => {
  const t = await getTemplate(deps, teamId, ref.id).catch(() => {
    throw validationError(`\`template.id\`: this team has no template with the id or alias \`${ref.id}\`.`);
  });
  const fallbacks = Object.fromEntries(
    t.variables
      .filter((x) => typeof x.fallback_value === 'string' || typeof x.fallback_value === 'number')
      .map((x) => [x.key, x.fallback_value as string | number]),
  );
  return {
    html: t.html,
    text: t.text,
    from: t.from,
    subject: t.subject,
    reply_to: t.reply_to,
    template_variables: { ...fallbacks, ...(ref.variables ?? {}) },
  };
};

/** A team's broadcast that is still a draft: 404 for none, 400 invalid_parameter when it is no longer a draft. */
export const draftOf = async (deps: Deps, teamId: string, id: string): Promise<BroadcastItem> => {
  const b = await readBroadcast(deps, teamId, id);
  if (!b) throw notFound(`Broadcast ${id}`);
  if (b.status !== 'draft') throw editRefused(b);
  return b;
};
