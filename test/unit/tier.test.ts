import net from 'node:net';
import { describe, expect, inject, it } from 'vitest';

describe('the unit tier', () => {
  it('starts no engine: no local endpoint is configured and no connection can be opened', () => {
    // The system tier's global setup publishes the engines' endpoints; the unit tier has none.
    expect(inject('local')).toBeUndefined();
    expect(() => net.connect({ host: '127.0.0.1', port: 8000 })).toThrow(/the unit tier opens no connection/);
  });
});
