import type { Deps } from '../../runtime/deps.ts';
import { signTracking, trackingKey } from './tokens.ts';

/** The tracking URLs live on the API origin. */
const base = (deps: Deps) => deps.config.PUBLIC_BASE_URL.replace(/\/$/, '');

/**
 * Adds tracking to an HTML body: each http(s) link of an `<a href>` goes through the click route
 * (click tracking), and a 1x1 pixel is added before `</body>` or at the end (open tracking).
 */
export const trackHtml = async (deps: Deps, html: string, where: { teamId: string; emailId: string; open: boolean; click: boolean }): Promise<string> => {
  const key = await trackingKey(deps);
  let out = html;
  if (where.click) {
    out = out.replace(/(<a\b[^>]*?\bhref\s*=\s*)(["'])(https?:\/\/[^"']+)\2/gi, (_m, pre: string, q: string, url: string) => {
      const original = url.replace(/&amp;/g, '&');
      return `${pre}${q}${base(deps)}/t/c/${signTracking(key, { kind: 'c', teamId: where.teamId, emailId: where.emailId, url: original })}${q}`;
    });
  }
  if (where.open) {
    const pixel = `<img src="${base(deps)}/t/o/${signTracking(key, { kind: 'o', teamId: where.teamId, emailId: where.emailId })}" width="1" height="1" alt="" style="display:none" />`;
    out = /<\/body>/i.test(out) ? out.replace(/<\/body>/i, `${pixel}</body>`) : `${out}${pixel}`;
  }
  return out;
};
