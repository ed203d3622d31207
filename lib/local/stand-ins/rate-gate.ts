/**
 * The SES stand-in's rate gate, run in a worker thread of its own: SendEmail calls are timed as
 * they arrive, on an event loop nothing else of the host shares, so a busy host cannot bunch
 * calls that were sent apart (nor spread ones sent together) before the rate is checked. Calls
 * within the rate, and every other request, go on to the stand-in; one past it answers 429
 * TooManyRequestsException, as SES does. The host reads the outcomes from its messages.
 *
 * SES counts recipients, not calls (https://docs.aws.amazon.com/ses/latest/dg/quotas.html): a
 * message to n recipients spends n of the rate. As SES does, it is let through whenever any of the
 * rate is left, and the calls after it are refused until the rate has recovered: its n recipients
 * are counted as n arrivals spread at the rate from its own (1000 / rate ms apart), so a 50-recipient
 * message at 14 a second holds the rate for the next 3.6 seconds.
 */
import { createServer, request, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

/** What the host tells the gate at start. */
export interface GateOptions {
  readonly port: number;
  readonly target: number;
  readonly ratePerSecond: number;
  readonly window: 'calendar' | 'sliding';
}

/** What the gate tells the host. */
export type GateMessage =
  | { readonly listening: true }
  | { readonly admitted: number; readonly emailId?: string; readonly units: readonly number[] }
  | { readonly throttled: number }
  | { readonly error: string };

const options = workerData as GateOptions;
let window = options.window;
parentPort!.on('message', (m: { window?: 'calendar' | 'sliding' }) => {
  if (m.window) window = m.window;
});
const tell = (m: GateMessage) => parentPort!.postMessage(m);

/**
 * Recipients admitted (one arrival each, those of a multi-recipient message spread at the rate, so
 * some lie ahead) from the last second on, in order; and the count of each calendar second from now on.
 */
const recent: number[] = [];
const calendar = new Map<number, number>();
/** The arrivals a message of `recipients` arriving at `now` counts as. */
const unitsOf = (now: number, recipients: number): number[] =>
  Array.from({ length: Math.max(1, recipients) }, (_, k) => now + Math.floor((k * 1000) / options.ratePerSecond));
const admit = (now: number, recipients: number): number[] | undefined => {
  while (recent.length > 0 && recent[0]! <= now - 1000) recent.shift();
  const second = Math.floor(now / 1000);
  for (const s of calendar.keys()) if (s < second) calendar.delete(s);
  if (
    window === 'sliding' ? recent.length >= options.ratePerSecond : (calendar.get(second) ?? 0) >= options.ratePerSecond
  )
    return undefined;
  const units = unitsOf(now, recipients);
  for (const u of units) {
    calendar.set(Math.floor(u / 1000), (calendar.get(Math.floor(u / 1000)) ?? 0) + 1);
    recent.push(u);
  }
  recent.sort((a, b) => a - b);
  return units;
};

/** The envelope recipients of a SendEmail body (To, Cc and Bcc), and its email_id tag. */
const readSend = (body: Buffer): { recipients: number; emailId: string | undefined } => {
  try {
    const request = JSON.parse(body.toString());
    const d = request.Destination ?? {};
    const recipients = [d.ToAddresses, d.CcAddresses, d.BccAddresses].reduce(
      (n: number, list: unknown) => n + (Array.isArray(list) ? list.length : 0),
      0,
    );
    const emailId = (request.EmailTags ?? []).find((t: { Name: string }) => t.Name === 'email_id')?.Value;
    return { recipients, emailId };
  } catch {
    // Not JSON: the stand-in answers it.
    return { recipients: 1, emailId: undefined };
  }
};

const server = createServer((req, res) => {
  const arrived = Date.now();
  if (req.method === 'POST' && req.url?.split('?')[0] === '/v2/email/outbound-emails') {
    // Read whole (a SendEmail is small): its recipients are what the rate counts, and it names its email.
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const { recipients, emailId } = readSend(body);
      const units = admit(arrived, recipients);
      if (!units) {
        res.writeHead(429, { 'content-type': 'application/json', 'x-amzn-errortype': 'TooManyRequestsException' });
        res.end(JSON.stringify({ message: 'Maximum sending rate exceeded.' }));
        tell({ throttled: arrived });
        return;
      }
      tell({ admitted: arrived, units, ...(emailId ? { emailId } : {}) });
      forward(req.method, req.url, req.headers, body, res);
    });
    return;
  }
  const upstream = request(
    { host: '127.0.0.1', port: options.target, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', (error) => failed(res, error));
  req.pipe(upstream);
});

const failed = (res: ServerResponse, error: Error) => {
  res.writeHead(502, { 'content-type': 'application/json', 'x-amzn-errortype': 'InternalFailure' });
  res.end(JSON.stringify({ message: error.message }));
};

const forward = (
  method: string | undefined,
  path: string | undefined,
  headers: IncomingHttpHeaders,
  body: Buffer,
  res: ServerResponse,
) => {
  const upstream = request({ host: '127.0.0.1', port: options.target, method, path, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  // The stand-in dropped the connection (its switch for a lost answer): so does the gate, as a reset reaches the caller.
  upstream.on('error', () => res.destroy());
  upstream.end(body);
};

// Idle connections stay open until the client closes them: a client reusing one the server had just
// timed out would see a reset (the SES client makes one attempt per send).
server.keepAliveTimeout = 0;
server.on('error', (error) => tell({ error: error.message }));
server.listen(options.port, '127.0.0.1', () => tell({ listening: true }));
