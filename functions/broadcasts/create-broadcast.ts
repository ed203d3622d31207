import { apiRoute } from '@mailstack/core/http/api-route';
import * as v from 'valibot';
import { CreateBroadcastRequest, SentBroadcast } from '@mailstack/core/schemas/broadcasts';
import { ObjectRef } from '@mailstack/core/schemas/common';
import { createAndSendBroadcast, createBroadcast } from '@mailstack/core/domain/broadcasts/create-broadcast';

/** POST /broadcasts: a draft, or with `send: true` created and sent (or scheduled) in one call. */
export const handler = apiRoute({
  access: 'full',
  response: v.union([ObjectRef('broadcast'), SentBroadcast]),
  errors: ['team_suspended', 'sending_paused', 'broadcasts_paused', 'broadcast_too_large'],
  body: CreateBroadcastRequest,
  status: 201,
  handler: async ({ deps, auth, body }) => {
    if (!body.send) return { object: 'broadcast', id: (await createBroadcast(deps, auth.team.id, body)).id };
    return { object: 'broadcast', ...(await createAndSendBroadcast(deps, auth.team, body)) };
  },
});
