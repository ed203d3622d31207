import type {
  BatchGetCommandInput,
  BatchGetCommandOutput,
  BatchWriteCommandInput,
  BatchWriteCommandOutput,
  DeleteCommandInput,
  DeleteCommandOutput,
  GetCommandInput,
  GetCommandOutput,
  PutCommandInput,
  PutCommandOutput,
  QueryCommandInput,
  QueryCommandOutput,
  TransactWriteCommandInput,
  TransactWriteCommandOutput,
  UpdateCommandInput,
  UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';

/**
 * The table's document operations, in DynamoDB's document shapes (the single-table design is
 * DynamoDB's): what the table adapter (`table/ops.ts`, `table/query-page.ts`) asks of the store.
 * No other module calls it; a test double implements the operations it needs.
 */
export interface TableStore {
  get(input: GetCommandInput): Promise<GetCommandOutput>;
  put(input: PutCommandInput): Promise<PutCommandOutput>;
  update(input: UpdateCommandInput): Promise<UpdateCommandOutput>;
  delete(input: DeleteCommandInput): Promise<DeleteCommandOutput>;
  transactWrite(input: TransactWriteCommandInput): Promise<TransactWriteCommandOutput>;
  query(input: QueryCommandInput): Promise<QueryCommandOutput>;
  batchGet(input: BatchGetCommandInput): Promise<BatchGetCommandOutput>;
  batchWrite(input: BatchWriteCommandInput): Promise<BatchWriteCommandOutput>;
}
