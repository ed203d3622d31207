import { describe, expect, it } from 'vitest';
import { configurationSetFor, sesTransport } from '@mailstack/core/adapters/aws/sesv2-transport';
import { newCounters } from '@mailstack/core/adapters/aws/counters';

describe('the configuration set of a send', () => {
  it('follows the domain\'s tracking switches: none by default, then -open, -click or -open-click', async () => {
    const sent: any[] = [];
    const client = { send: async (command: any) => { sent.push(command.input); return { MessageId: 'm' }; } } as any;
    const transport = sesTransport(() => client, 'Prod-mail', newCounters());
    const message = { region: 'us-east-1', from: 'a@example.com', recipients: ['b@example.com'], raw: Buffer.from('x'), tags: {} };
    for (const tracking of [{ open: false, click: false }, { open: true, click: false }, { open: false, click: true }, { open: true, click: true }]) {
      await transport.send({ ...message, tracking });
    }
    expect(sent.map((i) => i.ConfigurationSetName)).toEqual(['Prod-mail', 'Prod-mail-open', 'Prod-mail-click', 'Prod-mail-open-click']);
    expect(configurationSetFor('x', { open: false, click: false })).toBe('x');
  });
});
