import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { EMAIL_CONTENT_RETENTION_DAYS } from '@mailstack/core/limits';
import { acknowledge } from './acknowledge.ts';

/**
 * The content store: email bodies and attachments too large for a table row. Encrypted, never
 * public, TLS only, and every object expires with the email content retention.
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
      lifecycleRules: [
        { id: 'expire-email-content', enabled: true, expiration: Duration.days(EMAIL_CONTENT_RETENTION_DAYS), abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      // Message content expires on its own; a deleted stack leaves the bucket to its lifecycle.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(bucket, { 'AwsSolutions-S1': 'objects are written and read only by the service\'s own roles (CloudTrail records them); access logs would copy recipients\' content keys into another bucket' });
    this.bucket = bucket;
  }
}
