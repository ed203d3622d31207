import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as openPixel } from './open-pixel.ts';
import { handler as clickLink } from './click-link.ts';

/** The tracking Lambda (no API key: signed tokens). Its routes come from the route manifest. */
export const handler = dispatch(
  areaRoutes('tracking', {
    'open-pixel': openPixel,
    'click-link': clickLink,
  }),
);
