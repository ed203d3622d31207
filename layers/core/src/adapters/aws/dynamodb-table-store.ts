import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { TableStore } from '../../ports/table-store.ts';

/** The table store over DynamoDB's document client. */
export const dynamoTableStore = (db: DynamoDBDocumentClient): TableStore => ({
  get: (input) => db.send(new GetCommand(input)),
  put: (input) => db.send(new PutCommand(input)),
  update: (input) => db.send(new UpdateCommand(input)),
  delete: (input) => db.send(new DeleteCommand(input)),
  transactWrite: (input) => db.send(new TransactWriteCommand(input)),
  query: (input) => db.send(new QueryCommand(input)),
  batchGet: (input) => db.send(new BatchGetCommand(input)),
  batchWrite: (input) => db.send(new BatchWriteCommand(input)),
});
