import * as v from 'valibot';
import { validate } from './validate.ts';

/** The `x-batch-validation` header of batch endpoints (emails and contacts): strict by default. */
export const BatchMode = v.optional(v.picklist(['strict', 'permissive'], '`x-batch-validation` must be `strict` or `permissive`.'), 'strict');
export type BatchMode = v.InferOutput<typeof BatchMode>;

/** The batch mode a request asks for, from its header (any case). */
export const batchModeOf = (header: string | undefined): BatchMode => validate(BatchMode, header?.toLowerCase());
