// The ibm_watsonx_s3 destination config the watsonx stand-in accepts, shared by its integration and e2e tests.
import { IAM_API_KEY, S3_CREDENTIALS, type WatsonxStandIn } from '../../lambdas/connectors/ibm-watsonx/test-server';

/** A config writing `namespace`.`table` through the stand-in `wx` with its key and storage credentials. */
export const watsonxConfig = (wx: WatsonxStandIn, namespace: string, table: string) => ({
  iam_api_key: IAM_API_KEY,
  access_key_id: S3_CREDENTIALS.accessKeyId,
  secret_access_key: S3_CREDENTIALS.secretAccessKey,
  iceberg_endpoint: wx.endpoint,
  object_storage_endpoint: wx.s3Endpoint,
  object_storage_region: 'us-east-1',
  catalog: wx.catalog,
  namespace,
  table,
});
