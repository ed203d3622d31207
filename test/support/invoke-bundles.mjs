// Runs staged Lambda bundles as Lambda would: a plain Node process, the handler imported from the
// bundle file, invoked with an event and a context. Reads {invocations} as JSON on stdin; writes
// one line `RESULTS <json>` on stdout. The environment is the functions' environment.
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';

const input = JSON.parse(
  await new Promise((resolve) => {
    let text = '';
    process.stdin
      .on('data', (c) => {
        text += c;
      })
      .on('end', () => resolve(text));
  }),
);

const context = (name) => {
  const deadline = Date.now() + 30_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${name}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'bundle-test',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
};

const results = [];
for (const { name, file, event } of input.invocations) {
  try {
    const { handler } = await import(pathToFileURL(file).href);
    results.push({ name, ok: true, result: (await handler(event, context(name))) ?? null });
  } catch (error) {
    results.push({ name, ok: false, error: String(error?.stack ?? error) });
  }
}
// Exit once the line is written: stdout to a pipe is asynchronous, and exiting earlier cuts a long line.
process.stdout.write(`\nRESULTS ${JSON.stringify({ results })}\n`, () => process.exit(0));
