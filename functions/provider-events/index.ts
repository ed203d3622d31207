import { dispatch } from '@mailstack/core/http/dispatch';
import { handler as receiveSesEvent } from './receive-ses-event.ts';

/** The provider-events Lambda. */
export const handler = dispatch({ 'POST /provider-events/ses': receiveSesEvent });
