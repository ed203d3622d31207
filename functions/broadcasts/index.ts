import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as createBroadcast } from './create-broadcast.ts';
import { handler as listBroadcasts } from './list-broadcasts.ts';
import { handler as getBroadcast } from './get-broadcast.ts';
import { handler as updateBroadcast } from './update-broadcast.ts';
import { handler as deleteBroadcast } from './delete-broadcast.ts';
import { handler as sendBroadcast } from './send-broadcast.ts';
import { handler as cancelBroadcast } from './cancel-broadcast.ts';
import { handler as duplicateBroadcast } from './duplicate-broadcast.ts';
import { handler as listBroadcastRecipients } from './list-broadcast-recipients.ts';
import { handler as listBroadcastClickedLinks } from './list-broadcast-clicked-links.ts';

/** The broadcasts Lambda. Its routes, and the handler answering each, come from the route manifest. */
export const handler = dispatch(
  areaRoutes('broadcasts', {
    'create-broadcast': createBroadcast,
    'list-broadcasts': listBroadcasts,
    'get-broadcast': getBroadcast,
    'update-broadcast': updateBroadcast,
    'delete-broadcast': deleteBroadcast,
    'send-broadcast': sendBroadcast,
    'cancel-broadcast': cancelBroadcast,
    'duplicate-broadcast': duplicateBroadcast,
    'list-broadcast-recipients': listBroadcastRecipients,
    'list-broadcast-clicked-links': listBroadcastClickedLinks,
  }),
);
