import { describe, expect, it } from 'vitest';
import { sesTransport } from '@mailstack/core/adapters/aws/sesv2-transport';
import { newCounters } from '@mailstack/core/adapters/aws/counters';

describe('the configuration set of a send', () => {
  it("is the stack's one set for every message, so SES never adds its own tracking", async () => {
    const sent: any[] = [];
    const client = {
      send: async (command: any) => {
        sent.push(command.input);
        return { MessageId: 'm' };
      },
    } as any;
    const transport = sesTransport(() => client, 'Prod-mail', newCounters());
    await transport.send({
      region: 'us-east-1',
      from: 'a@example.com',
      recipients: ['b@example.com'],
      raw: Buffer.from('x'),
      tags: {},
    });
    expect(sent.map((i) => i.ConfigurationSetName)).toEqual(['Prod-mail']);
  });
});
