// The data bucket: uploaded job inputs and every job node's output (jobs/<id>/<node>/<file>.json).
// Private (all public access blocked, bucket-owner objects, TLS only), S3-managed encryption, and a
// lifecycle rule that expires job data after a configurable number of days. bindBucket() grants (objects
// under jobs/ only) and sets BUCKET_NAME in one call.
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { setConfigEnv } from './base-function';

/** Key prefix of job data; the lifecycle rule expires objects under it. */
export const JOB_DATA_PREFIX = 'jobs/';

export type BucketAccess = 'read' | 'readwrite';

export interface DataBucketProps {
  /** Days after which objects under jobs/ are deleted. Default 30. */
  jobDataExpirationDays?: number;
  /** Default RETAIN. DESTROY also empties the bucket on stack deletion (a CDK custom resource). */
  removalPolicy?: RemovalPolicy;
  /** Days S3 server access logs are kept. Default 90. */
  accessLogExpirationDays?: number;
}

/**
 * Key prefix of the data bucket's server access logs in the log bucket. S3 server access logs (not
 * CloudTrail data events): they record every request, presigned GETs included, with the requester
 * (the principal that signed the URL), the source IP, the key and the status, at no cost beyond
 * storage; data events would need a trail and cost per request.
 */
export const ACCESS_LOG_PREFIX = 'data-bucket/';

export class DataBucket extends Construct {
  readonly bucket: s3.Bucket;
  /** Server access logs of the data bucket (a bucket of their own: a bucket logging into itself loops). */
  readonly logBucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: DataBucketProps = {}) {
    super(scope, id);
    const days = props.jobDataExpirationDays ?? 30;
    if (!Number.isInteger(days) || days < 1) throw new Error(`jobDataExpirationDays must be a positive integer, got ${days}`);
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    this.logBucket = new s3.Bucket(this, 'AccessLogs', {
      encryption: s3.BucketEncryption.S3_MANAGED, // the log delivery writes SSE-S3 only
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      lifecycleRules: [{ id: 'ExpireAccessLogs', expiration: Duration.days(props.accessLogExpirationDays ?? 90) }],
      removalPolicy,
      autoDeleteObjects: removalPolicy === RemovalPolicy.DESTROY,
    });
    this.bucket = new s3.Bucket(this, 'Bucket', {
      serverAccessLogsBucket: this.logBucket,
      serverAccessLogsPrefix: ACCESS_LOG_PREFIX,
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      lifecycleRules: [
        { id: 'ExpireJobData', prefix: JOB_DATA_PREFIX, expiration: Duration.days(days) },
        { id: 'AbortIncompleteUploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      removalPolicy,
      autoDeleteObjects: removalPolicy === RemovalPolicy.DESTROY,
    });
  }

  /**
   * Grants object access under jobs/ (every object the service keeps lives there: inputs, uploads,
   * manifests, page ranges, node outputs; no bucket administration) and sets BUCKET_NAME.
   */
  bindBucket(fn: lambda.Function, access: BucketAccess = 'readwrite'): void {
    const objects = `${JOB_DATA_PREFIX}*`;
    if (access === 'read') this.bucket.grantRead(fn, objects);
    else this.bucket.grantReadWrite(fn, objects);
    setConfigEnv(fn, 'BUCKET_NAME', this.bucket.bucketName);
  }
}
