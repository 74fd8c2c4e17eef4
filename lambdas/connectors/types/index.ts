// Every connector type. Adding a type: write one file exporting a ConnectorDefinition per kind and
// list it here.
import type { ConnectorDefinition } from '../definition';
import { azureDestination, azureSource } from './azure';
import { boxSource } from '../box/index';
import { localDestination, localSource } from './local';
import { s3Destination, s3Source } from './s3';
import { astradbDestination } from '../astradb/index';
import { postgresDestination } from '../postgres/index';
import { pineconeDestination } from '../pinecone/index';
import { qdrantDestination } from '../qdrant/index';
import { elasticsearchDestination, opensearchDestination } from '../elasticsearch/index';
import { azureAiSearchDestination } from '../azure-ai-search/index';
import { weaviateCloudDestination } from '../weaviate/index';
import { milvusDestination } from '../milvus/index';
import { mongodbDestination } from '../mongodb/index';
import { redisDestination } from '../redis/index';
import { kafkaCloudDestination } from '../kafka/index';
import { snowflakeDestination } from '../snowflake/index';
import { neo4jDestination } from '../neo4j/index';
import { motherduckDestination } from '../duckdb/index';
import { deltaTableDestination } from '../delta/index';
import { databricksVolumesDestination } from '../databricks/volumes';
import { gcsDestination } from '../gcs/index';
import { onedriveDestination } from '../onedrive/index';
import { databricksVolumeDeltaTablesDestination } from '../databricks/volume-delta-tables';
import { couchbaseDestination, couchbaseSource } from '../couchbase/index';
import { dropboxSource } from '../dropbox/index';
import { confluenceSource } from '../confluence/index';
import { jiraSource } from '../jira/index';
import { onedriveSource } from '../onedrive/source';
import { sharepointSource } from '../onedrive/sharepoint';
import { outlookSource } from '../onedrive/outlook';
import { postgresSource } from '../postgres/source';
import { mongodbSource } from '../mongodb/source';
import { elasticsearchSource, opensearchSource } from '../elasticsearch/source';
import { snowflakeSource } from '../snowflake/source';
import { databricksVolumesSource } from '../databricks/volumes-source';
import { ibmWatsonxS3Destination } from '../ibm-watsonx/index';
import { gcsSource } from '../gcs/source';
import { googleDriveSource } from '../google-drive/index';
import { slackSource } from '../slack/index';
import { zendeskSource } from '../zendesk/index';
import { salesforceSource } from '../salesforce/index';
import { teradataDestination, teradataSource } from '../teradata/index';
import { kafkaCloudSource } from '../kafka/source';

export const CONNECTOR_DEFINITIONS: readonly ConnectorDefinition[] = [
  s3Source,
  s3Destination,
  azureSource,
  azureDestination,
  localSource,
  localDestination,
  boxSource,
  astradbDestination,
  postgresDestination,
  pineconeDestination,
  qdrantDestination,
  elasticsearchDestination,
  opensearchDestination,
  azureAiSearchDestination,
  weaviateCloudDestination,
  milvusDestination,
  mongodbDestination,
  redisDestination,
  kafkaCloudDestination,
  snowflakeDestination,
  neo4jDestination,
  motherduckDestination,
  deltaTableDestination,
  databricksVolumesDestination,
  gcsDestination,
  onedriveDestination,
  databricksVolumeDeltaTablesDestination,
  couchbaseDestination,
  couchbaseSource,
  dropboxSource,
  confluenceSource,
  jiraSource,
  onedriveSource,
  sharepointSource,
  outlookSource,
  postgresSource,
  mongodbSource,
  elasticsearchSource,
  opensearchSource,
  snowflakeSource,
  databricksVolumesSource,
  ibmWatsonxS3Destination,
  gcsSource,
  googleDriveSource,
  slackSource,
  zendeskSource,
  salesforceSource,
  teradataDestination,
  teradataSource,
  kafkaCloudSource,
];
