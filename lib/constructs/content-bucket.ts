import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  ObjectOwnership,
  type CfnBucket,
  type IBucket,
} from 'aws-cdk-lib/aws-s3';
import { Construct, type IConstruct } from 'constructs';
import { PolicyStatement, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { EMAIL_CONTENT_RETENTION_DAYS } from '@mailstack/core/limits';
import {
  CONTENT_KEY_PREFIX,
  DOWNLOAD_COPY_PREFIX,
  DOWNLOAD_COPY_RETENTION_DAYS,
  INBOUND_RAW_PREFIX,
  INBOUND_RAW_RETENTION_DAYS,
} from '@mailstack/core/content-keys';
import { acknowledge } from './acknowledge.ts';

/**
 * Days a deleted or replaced object's old version is kept (a bad deploy or a mistaken delete can
 * be undone within them), then removed by the lifecycle.
 */
export const NONCURRENT_VERSION_DAYS = 7;

/**
 * The content store: email bodies and attachments too large for a table row (`emails/`, expiring
 * with the email content retention), mailbox mail (`mailboxes/`, kept until deleted) and the
 * receipt rule's raw inbound copies (`inbound/`, expiring after INBOUND_RAW_RETENTION_DAYS).
 * Encrypted, never public, TLS only.
 */
export class ContentBucket extends Construct {
  readonly bucket: IBucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const bucket = new Bucket(this, 'Bucket', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // A deleted or overwritten object stays recoverable for NONCURRENT_VERSION_DAYS, then goes.
      versioned: true,
      lifecycleRules: [
        {
          id: 'expire-old-versions',
          enabled: true,
          noncurrentVersionExpiration: Duration.days(NONCURRENT_VERSION_DAYS),
        },
        // Expiry leaves a delete marker on each key: removed once nothing is under it.
        { id: 'remove-expired-delete-markers', enabled: true, expiredObjectDeleteMarker: true },
        {
          id: 'expire-email-content',
          enabled: true,
          prefix: CONTENT_KEY_PREFIX,
          expiration: Duration.days(EMAIL_CONTENT_RETENTION_DAYS),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
        {
          // Inside `emails/`: of two expirations S3 applies the shorter (lifecycle conflicts).
          id: 'expire-download-copies',
          enabled: true,
          prefix: DOWNLOAD_COPY_PREFIX,
          expiration: Duration.days(DOWNLOAD_COPY_RETENTION_DAYS),
        },
        {
          id: 'expire-inbound-raw',
          enabled: true,
          prefix: INBOUND_RAW_PREFIX,
          expiration: Duration.days(INBOUND_RAW_RETENTION_DAYS),
        },
        { id: 'abort-incomplete-uploads', enabled: true, abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      // Message content expires on its own; a deleted stack leaves the bucket to its lifecycle.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(bucket, {
      'AwsSolutions-S1':
        "objects are written and read only by the service's own roles (CloudTrail records them); access logs would copy recipients' content keys into another bucket",
    });
    this.bucket = bucket;
  }

  /**
   * Lets `grantee` take exactly these object actions on keys under `prefix` (email content,
   * `emails/`, unless told), nothing on the bucket itself. No s3:ListBucket: S3 then answers a
   * missing key 403 AccessDenied, which the content store reads as missing (s3-content-store.ts
   * says why).
   */
  grant(
    grantee: IGrantable & IConstruct,
    actions: readonly ('s3:PutObject' | 's3:GetObject' | 's3:DeleteObject')[],
    prefix: string = CONTENT_KEY_PREFIX,
  ): void {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: [...actions], resources: [this.bucket.arnForObjects(`${prefix}*`)] }),
    );
    acknowledge(grantee, {
      [`AwsSolutions-IAM5[Resource::<${Stack.of(this).getLogicalId(this.bucket.node.defaultChild as CfnBucket)}.Arn>/${prefix}*]`]:
        'one object per message part, keyed by message id at run time, only under its prefix',
    });
  }
}
