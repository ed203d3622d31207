import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The file under the data directory that keeps the link-signing secret. */
export const LINK_SECRET_FILE = 'link-secret';

/**
 * The local host's link-signing secret (preference and unsubscribe links): generated on the
 * first start and kept in the data directory (readable by its owner only), so links keep
 * working across restarts of the same data; a fresh random one in memory mode. No value is
 * ever committed or shared between installations.
 */
export const linkSecret = (dataDir: string | undefined): string => {
  const fresh = () => randomBytes(32).toString('base64url');
  if (!dataDir) return fresh();
  const file = resolve(dataDir, LINK_SECRET_FILE);
  if (existsSync(file)) {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept.length >= 32) return kept;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = fresh();
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
};
