import { describe, expect, it } from 'vitest';
import { SHARE_MAX_SECONDS, shareLifetimeSeconds } from '@mailstack/core/domain/emails/share-email';

/** `expires_in` of POST /emails/{id}/share: a number and a unit, 1 second to 48 hours, 48 hours when absent. */
describe('shared link lifetime', () => {
  it.each([
    ['10m', 600],
    ['2 hours', 7200],
    ['1 day', 86_400],
    ['48h', SHARE_MAX_SECONDS],
    ['90s', 90],
    ['1.5h', 5400],
    [' 30 Minutes ', 1800],
    ['2 days', SHARE_MAX_SECONDS],
  ])('reads %j as %i seconds', (input, seconds) => {
    expect(shareLifetimeSeconds(input)).toBe(seconds);
  });

  it('is 48 hours when absent', () => {
    expect(shareLifetimeSeconds(undefined)).toBe(48 * 3600);
  });

  it.each(['49h', '3 days', '0s', '0.2s', 'soon', '10', 'm', '10 fortnights', '-5m', '1e3s'])(
    'refuses %j with a 422 that says what is allowed',
    (input) => {
      expect(() => shareLifetimeSeconds(input)).toThrow(
        expect.objectContaining({
          name: 'validation_error',
          statusCode: 422,
          message: expect.stringContaining('expires_in'),
        }),
      );
    },
  );
});
