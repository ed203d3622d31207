import type { Deps } from '../../runtime/deps.ts';
import { signTracking, trackingKey } from './tokens.ts';

/**
 * Adds tracking to an HTML body: each http(s) link of an `<a href>` goes through the click route
 * (click tracking), and a 1x1 pixel is added before `</body>` or at the end (open tracking). The
 * URLs live on `origin`: the domain's tracking host or the API origin (domain.ts trackingOrigin).
 */
export const trackHtml = async (
  deps: Deps,
  html: string,
  where: { teamId: string; emailId: string; open: boolean; click: boolean; origin: string },
): Promise<string> => {
  const key = await trackingKey(deps);
  let out = html;
  if (where.click) {
    out = out.replace(
      /(<a\b[^>]*?\bhref\s*=\s*)(["'])(https?:\/\/[^"']+)\2/gi,
      (_m, pre: string, q: string, url: string) => {
        const original = url.replace(/&amp;/g, '&');
        return `${pre}${q}${where.origin}/t/c/${signTracking(key, { kind: 'c', teamId: where.teamId, emailId: where.emailId, url: original })}${q}`;
      },
    );
  }
  if (where.open) {
    const pixel = `<img src="${where.origin}/t/o/${signTracking(key, { kind: 'o', teamId: where.teamId, emailId: where.emailId })}" width="1" height="1" alt="" style="display:none" />`;
    out = /<\/body>/i.test(out) ? out.replace(/<\/body>/i, `${pixel}</body>`) : `${out}${pixel}`;
  }
  return out;
};
