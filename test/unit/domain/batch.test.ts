import { describe, expect, it } from 'vitest';
import { checkBatch } from '@mailstack/core/domain/batch';
import { ApiError, validationError } from '@mailstack/core/errors/api-error';

const check = (item: unknown) => {
  if (item === 'bad') throw validationError('`to` is not an address.');
  if (item === 'paused') throw new ApiError('sending_paused', 'Sending is paused.');
  if (item === 'boom') throw new Error('engine down');
  return String(item).toUpperCase();
};

describe('the batch-validation rule', () => {
  it('in permissive mode reports invalid items by index and keeps the valid ones in order', async () => {
    expect(await checkBatch(['a', 'bad', 'c'], 'permissive', check)).toEqual({
      valid: [
        { index: 0, value: 'A' },
        { index: 2, value: 'C' },
      ],
      errors: [{ index: 1, message: '`to` is not an address.' }],
    });
  });

  it("in strict mode refuses the whole batch with the first invalid item's error, naming its index", async () => {
    await expect(checkBatch(['a', 'bad', 'bad'], 'strict', check)).rejects.toMatchObject({
      name: 'validation_error',
      message: 'Item 1: `to` is not an address.',
    });
  });

  it('answers a call-level refusal once, even in permissive mode', async () => {
    await expect(checkBatch(['a', 'paused', 'bad'], 'permissive', check)).rejects.toMatchObject({
      name: 'sending_paused',
      statusCode: 403,
    });
  });

  it('lets a fault that is not a refusal through untouched', async () => {
    await expect(checkBatch(['boom'], 'permissive', check)).rejects.toThrow('engine down');
  });
});
