import * as v from 'valibot';
import { validate } from './validate.ts';

const Modes = v.picklist(['strict', 'permissive'], '`x-batch-validation` must be `strict` or `permissive`.');

/** The `x-batch-validation` header of batch endpoints (emails and contacts): strict by default. */
export const BatchMode = v.optional(Modes, 'strict');

/** The headers the batch routes read (`x-batch-validation`). */
export const BatchHeaders = v.object({ 'x-batch-validation': v.optional(Modes) });
export type BatchMode = v.InferOutput<typeof BatchMode>;

/** The batch mode a request asks for, from its header (any case). */
export const batchModeOf = (header: string | undefined): BatchMode => validate(BatchMode, header?.toLowerCase());
