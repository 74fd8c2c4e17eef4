// CDK entry point (cdk.json: "npx tsx bin/app.ts"). Settings come from context (-c name=value or
// cdk.json): stackName, authMode (keyed|none), defaultAccountId, defaultUserId,
// jobDataExpirationDays, removalPolicy (retain|destroy), stageName, architecture (arm64|x86_64),
// notificationFromAddress, notificationFromDomain (SES identity), alarmEmail, reservedConcurrency
// ('<partition>,<fileProcessing>' or 'off'), perKeyRateLimit (requests per 5 minutes per API key).
// The stack has nested stacks: `cdk deploy` deploys them with it.
// Account and region come from the CLI's profile (CDK_DEFAULT_ACCOUNT / CDK_DEFAULT_REGION);
// without them the stack is environment-agnostic.
import { App } from 'aws-cdk-lib';
import { WorkflowServiceStack } from '../lib/workflow-service-stack';
import { stackPropsFromContext } from '../lib/context';

const app = new App({ analyticsReporting: false });
const { stackName, props } = stackPropsFromContext((key) => app.node.tryGetContext(key));
new WorkflowServiceStack(app, stackName, {
  ...props,
  env:
    process.env.CDK_DEFAULT_ACCOUNT && process.env.CDK_DEFAULT_REGION
      ? { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION }
      : undefined,
  description: 'Self-hosted, Unstructured-compatible document workflow service',
});
app.synth();
