/**
 * The SES stand-in's rate gate, run in a worker thread of its own: SendEmail calls are timed as
 * they arrive, on an event loop nothing else of the host shares, so a busy host cannot bunch
 * calls that were sent apart (nor spread ones sent together) before the rate is checked. Calls
 * within the rate, and every other request, go on to the stand-in; one past it answers 429
 * TooManyRequestsException, as SES does. The host reads the outcomes from its messages.
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
  | { readonly admitted: number; readonly emailId?: string }
  | { readonly throttled: number }
  | { readonly error: string };

const options = workerData as GateOptions;
let window = options.window;
parentPort!.on('message', (m: { window?: 'calendar' | 'sliding' }) => {
  if (m.window) window = m.window;
});
const tell = (m: GateMessage) => parentPort!.postMessage(m);

/** Arrivals admitted within the last second, oldest first; and the current calendar second's count. */
const recent: number[] = [];
let calendar = { second: 0, count: 0 };
const admit = (now: number): boolean => {
  while (recent.length > 0 && recent[0]! <= now - 1000) recent.shift();
  const second = Math.floor(now / 1000);
  if (calendar.second !== second) calendar = { second, count: 0 };
  if (window === 'sliding' ? recent.length >= options.ratePerSecond : calendar.count >= options.ratePerSecond)
    return false;
  calendar.count++;
  recent.push(now);
  return true;
};

const server = createServer((req, res) => {
  const arrived = Date.now();
  if (req.method === 'POST' && req.url?.split('?')[0] === '/v2/email/outbound-emails') {
    if (!admit(arrived)) {
      req.resume();
      req.on('end', () => {
        res.writeHead(429, { 'content-type': 'application/json', 'x-amzn-errortype': 'TooManyRequestsException' });
        res.end(JSON.stringify({ message: 'Maximum sending rate exceeded.' }));
      });
      tell({ throttled: arrived });
      return;
    }
    // Read whole (a SendEmail is small), to name the email it admitted.
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let emailId: string | undefined;
      try {
        emailId = (JSON.parse(body.toString()).EmailTags ?? []).find(
          (t: { Name: string }) => t.Name === 'email_id',
        )?.Value;
      } catch {
        /* not JSON: the stand-in answers it */
      }
      tell({ admitted: arrived, ...(emailId ? { emailId } : {}) });
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
  upstream.on('error', (error) => failed(res, error));
  upstream.end(body);
};

// Idle connections stay open until the client closes them: a client reusing one the server had just
// timed out would see a reset (the SES client makes one attempt per send).
server.keepAliveTimeout = 0;
server.on('error', (error) => tell({ error: error.message }));
server.listen(options.port, '127.0.0.1', () => tell({ listening: true }));
