import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** What the stand-in remembers of an SES email identity. */
interface Identity {
  tokens: string[];
  verificationRequested: boolean;
}

/** Options of the SES stand-in. */
export interface SesStandInOptions {
  /** The SES endpoint port the runtime talks to. */
  readonly port: number;
  /** The port of the embedded aws-ses-v2-local (the local inbox). */
  readonly inboxPort: number;
  /** File that keeps identities across restarts; in memory when absent. */
  readonly stateFile?: string | undefined;
}

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

const send = (res: ServerResponse, status: number, body: unknown, type = 'NotFoundException') => {
  res.writeHead(status, { 'content-type': 'application/json', ...(status >= 400 ? { 'x-amzn-errortype': type } : {}) });
  res.end(JSON.stringify(body));
};

/**
 * The local SES v2 endpoint: email identities (DKIM tokens; verification succeeds once asked)
 * are answered here, everything else (SendEmail, the inbox at GET /store and the web view) is
 * served by the embedded aws-ses-v2-local.
 */
export const startSesStandIn = async (options: SesStandInOptions): Promise<{ server: Server; inbox: Server; stop: () => Promise<void> }> => {
  const startInbox = require('aws-ses-v2-local').default as (c: { host: string; port: number }) => Promise<Server>;
  const inbox = await startInbox({ host: '127.0.0.1', port: options.inboxPort });
  const identities = new Map<string, Identity>(
    options.stateFile && existsSync(options.stateFile) ? Object.entries(JSON.parse(readFileSync(options.stateFile, 'utf8'))) : [],
  );
  const persist = () => options.stateFile && writeFileSync(options.stateFile, JSON.stringify(Object.fromEntries(identities)));
  const view = (name: string, id: Identity) => ({
    IdentityType: 'DOMAIN',
    VerifiedForSendingStatus: id.verificationRequested,
    VerificationStatus: id.verificationRequested ? 'SUCCESS' : 'PENDING',
    DkimAttributes: { SigningEnabled: true, Status: id.verificationRequested ? 'SUCCESS' : 'PENDING', Tokens: id.tokens, SigningAttributesOrigin: 'AWS_SES' },
    MailFromAttributes: { MailFromDomain: `send.${name}`, MailFromDomainStatus: 'SUCCESS', BehaviorOnMxFailure: 'USE_DEFAULT_VALUE' },
  });

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = /^\/v2\/email\/identities(?:\/([^/]+))?(\/mail-from)?$/.exec(url.pathname);
    if (match) {
      const body = await readBody(req);
      const name = match[1] ? decodeURIComponent(match[1]) : (JSON.parse(body.toString() || '{}').EmailIdentity as string);
      const existing = identities.get(name);
      if (req.method === 'POST' && !match[1]) {
        if (existing) return send(res, 400, { message: `Email identity ${name} already exists.` }, 'AlreadyExistsException');
        const created = { tokens: [0, 1, 2].map(() => randomBytes(16).toString('hex')), verificationRequested: false };
        identities.set(name, created);
        persist();
        const v = view(name, created);
        return send(res, 200, { IdentityType: v.IdentityType, VerifiedForSendingStatus: false, DkimAttributes: v.DkimAttributes });
      }
      if (!existing) return send(res, 404, { message: `Email identity ${name} does not exist.` });
      if (match[2]) return send(res, 200, {});
      if (req.method === 'GET') {
        // Verification "succeeds when asked": the first read after creation is the check.
        existing.verificationRequested = true;
        persist();
        return send(res, 200, view(name, existing));
      }
      if (req.method === 'DELETE') {
        identities.delete(name);
        persist();
        return send(res, 200, {});
      }
    }
    // Everything else goes to the embedded inbox.
    const body = await readBody(req);
    const upstream = httpRequest(
      { host: '127.0.0.1', port: options.inboxPort, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', (error) => send(res, 502, { message: error.message }, 'InternalFailure'));
    upstream.end(body);
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  const close = (s: Server) => new Promise<void>((resolve) => { s.closeAllConnections?.(); s.close(() => resolve()); });
  return { server, inbox, stop: async () => { await close(server); await close(inbox); } };
};
