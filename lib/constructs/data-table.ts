import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, type ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { TABLE } from '@mailstack/core/table/definition';

/** Props of the data table. */
export interface DataTableProps {
  /** CloudFormation and the console refuse to delete the table while on. @default true */
  readonly deletionProtection?: boolean;
  /** Continuous backups: any second of the last 35 days restores to a new table. @default true */
  readonly pointInTimeRecovery?: boolean;
}

/** The single table, built from the core's definition (keys, GSIs, TTL), never restated. */
export class DataTable extends Construct {
  readonly table: ITable;

  constructor(scope: Construct, id: string, props: DataTableProps = {}) {
    super(scope, id);
    const table = new Table(this, 'Table', {
      partitionKey: { name: TABLE.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TABLE.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: props.pointInTimeRecovery ?? true },
      deletionProtection: props.deletionProtection ?? true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of TABLE.indexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
      });
    }
    this.table = table;
  }
}
