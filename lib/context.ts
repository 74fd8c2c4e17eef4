// Reads the stack settings from CDK context values (strings when given with -c) and validates them,
// so a typo fails the synth instead of deploying a default.
import { RemovalPolicy } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { AuthMode, WorkflowServiceStackProps } from './workflow-service-stack';

export const DEFAULT_STACK_NAME = 'WorkflowService';

export function stackPropsFromContext(get: (key: string) => unknown): { stackName: string; props: WorkflowServiceStackProps } {
  const str = (key: string): string | undefined => {
    const v = get(key);
    if (v === undefined || v === null || v === '') return undefined;
    return String(v);
  };
  const authMode = str('authMode') ?? 'keyed';
  if (authMode !== 'keyed' && authMode !== 'none') throw new Error(`context authMode must be 'keyed' or 'none', got '${authMode}'`);
  const removal = str('removalPolicy') ?? 'retain';
  if (removal !== 'retain' && removal !== 'destroy') throw new Error(`context removalPolicy must be 'retain' or 'destroy', got '${removal}'`);
  const daysText = str('jobDataExpirationDays');
  const days = daysText === undefined ? undefined : Number(daysText);
  if (days !== undefined && !(Number.isInteger(days) && days > 0)) {
    throw new Error(`context jobDataExpirationDays must be a positive integer, got '${daysText}'`);
  }
  const architecture = str('architecture') ?? 'arm64';
  if (architecture !== 'arm64' && architecture !== 'x86_64') throw new Error(`context architecture must be 'arm64' or 'x86_64', got '${architecture}'`);
  const deny = str('denyPrivateNetworks') ?? 'true';
  if (deny !== 'true' && deny !== 'false') throw new Error(`context denyPrivateNetworks must be 'true' or 'false', got '${deny}'`);
  const ambient = str('allowAmbientCredentials') ?? 'false';
  if (ambient !== 'true' && ambient !== 'false') throw new Error(`context allowAmbientCredentials must be 'true' or 'false', got '${ambient}'`);
  const standIns = str('allowOfflineStandIns') ?? 'false';
  if (standIns !== 'true' && standIns !== 'false') throw new Error(`context allowOfflineStandIns must be 'true' or 'false', got '${standIns}'`);
  const reserved = str('reservedConcurrency');
  let concurrency: WorkflowServiceStackProps['reservedConcurrency'];
  if (reserved === 'off') concurrency = false;
  else if (reserved !== undefined) {
    // partition,fileProcessing: e.g. -c reservedConcurrency=10,25
    const [partition, fileProcessing] = reserved.split(',').map(Number);
    if (!Number.isInteger(partition) || !Number.isInteger(fileProcessing) || partition! < 1 || fileProcessing! < 1) {
      throw new Error(`context reservedConcurrency must be 'off' or '<partition>,<fileProcessing>' (positive integers), got '${reserved}'`);
    }
    concurrency = { partition: partition!, fileProcessing: fileProcessing! };
  }
  const rangesText = str('pageRanges');
  let pageRanges: WorkflowServiceStackProps['pageRanges'];
  if (rangesText !== undefined) {
    // pages per range for OCR'd strategies, then for fast: e.g. -c pageRanges=40,400
    const [pages, fastPages] = rangesText.split(',').map(Number);
    if (!Number.isInteger(pages) || !Number.isInteger(fastPages) || pages! < 1 || fastPages! < 1) {
      throw new Error(`context pageRanges must be '<pages>,<fastPages>' (positive integers), got '${rangesText}'`);
    }
    pageRanges = { pages: pages!, fastPages: fastPages! };
  }
  const rateText = str('perKeyRateLimit');
  if (rateText !== undefined && !(Number.isInteger(Number(rateText)) && Number(rateText) >= 10)) {
    throw new Error(`context perKeyRateLimit must be an integer >= 10, got '${rateText}'`);
  }
  return {
    stackName: str('stackName') ?? DEFAULT_STACK_NAME,
    props: {
      authMode: authMode as AuthMode,
      defaultAccountId: str('defaultAccountId'),
      defaultUserId: str('defaultUserId'),
      jobDataExpirationDays: days,
      removalPolicy: removal === 'destroy' ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN,
      stageName: str('stageName'),
      architecture: architecture === 'x86_64' ? lambda.Architecture.X86_64 : lambda.Architecture.ARM_64,
      denyPrivateNetworks: deny === 'true',
      allowAmbientCredentials: ambient === 'true',
      allowOfflineStandIns: standIns === 'true',
      notificationFromAddress: str('notificationFromAddress'),
      notificationFromDomain: str('notificationFromDomain'),
      alarmEmail: str('alarmEmail'),
      reservedConcurrency: concurrency,
      pageRanges,
      perKeyRateLimit: rateText === undefined ? undefined : Number(rateText),
    },
  };
}
