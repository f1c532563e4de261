/**
 * The contact messages: the one copy of what a visitor sent until it is e-mailed, so it is
 * kept through a stack deletion and recoverable to any second of the last 35 days (MESSAGE_TABLE.pointInTimeRecoveryDays). Keys,
 * TTL and every index come from MESSAGE_TABLE, which the local stack's CreateTable uses too.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { type AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { MESSAGE_TABLE, type IndexName, type KeyAttribute } from '@site/core/table';

export interface MessageTableProps {
  deletionProtection: boolean;
}

const keyAttribute = (key: KeyAttribute) => ({ name: key.name, type: key.type as AttributeType });

export class MessageTable extends Table {
  constructor(scope: Construct, id: string, props: MessageTableProps) {
    super(scope, id, {
      partitionKey: keyAttribute(MESSAGE_TABLE.partitionKey),
      timeToLiveAttribute: MESSAGE_TABLE.timeToLiveAttribute,
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      pointInTimeRecoverySpecification: {
        pointInTimeRecoveryEnabled: true,
        recoveryPeriodInDays: MESSAGE_TABLE.pointInTimeRecoveryDays,
      },
      deletionProtection: props.deletionProtection,
      // Kept through an update or a stack deletion, but removed when the create itself rolls
      // back (empty then), and without a fixed name: a failed first deploy can simply be retried.
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    for (const [indexName, index] of Object.entries<{ partitionKey: KeyAttribute; sortKey?: KeyAttribute }>(MESSAGE_TABLE.indexes)) {
      this.addGlobalSecondaryIndex({
        indexName,
        partitionKey: keyAttribute(index.partitionKey),
        sortKey: index.sortKey && keyAttribute(index.sortKey),
        // Readers work from the index alone (the retry job re-sends from it): whole items.
        projectionType: ProjectionType.ALL,
      });
    }
  }

  /** Item actions on the table itself; unlike Table.grant, never on its indexes. */
  grantItems(grantee: IGrantable, ...actions: string[]): Grant {
    return Grant.addToPrincipal({ grantee, actions, resourceArns: [this.tableArn] });
  }

  /**
   * Item actions on the table itself, on the items whose partition key matches one of `keys`
   * (`*` for any characters) only: a role that owns one item (the digest's state) or one kind
   * (idempotency records) may act on those, and on no message.
   */
  grantItemsWithKeys(grantee: IGrantable, keys: readonly string[], ...actions: string[]): Grant {
    return Grant.addToPrincipal({
      grantee,
      actions,
      resourceArns: [this.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...keys] } },
    });
  }

  /** Query on one index, by name. */
  grantQueryIndex(grantee: IGrantable, index: IndexName): Grant {
    return Grant.addToPrincipal({ grantee, actions: ['dynamodb:Query'], resourceArns: [`${this.tableArn}/index/${index}`] });
  }
}
