import { dispatch } from '@mailstack/core/http/dispatch';
import { handler as showPreferences } from './show-preferences.ts';
import { handler as savePreferences } from './save-preferences.ts';
import { handler as showUnsubscribe } from './show-unsubscribe.ts';
import { handler as oneClickUnsubscribe } from './one-click-unsubscribe.ts';

/** The preferences Lambda. */
export const handler = dispatch({
  'GET /preferences/{token}': showPreferences,
  'POST /preferences/{token}': savePreferences,
  'GET /unsubscribe/{token}': showUnsubscribe,
  'POST /unsubscribe/{token}': oneClickUnsubscribe,
});
