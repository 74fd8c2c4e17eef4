// Operability: an SNS topic for alarms (optionally with an e-mail subscription), alarms on what an
// operator must act on, and a dashboard of the same metrics. Alarms:
// - every dead-letter queue with a visible message (otherwise it expires unseen after 14 days);
// - failed and timed-out executions of each state machine;
// - Lambda errors and throttles of every function, summed with metric math in groups of ten (an
//   alarm's expression takes at most ten metrics);
// - API 5xx responses and the p99 latency near the gateway's 29 s.
// Built in a nested stack of its own: it only reads names from the others.
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { pascal } from './names';

/** Most metrics one metric-math alarm may use. */
export const METRICS_PER_MATH_ALARM = 10;
/** p99 latency above this (ms) raises the latency alarm: close to API Gateway's 29 s integration limit. */
export const API_LATENCY_P99_THRESHOLD_MS = 25_000;
/** 5xx responses in five minutes that raise the API error alarm. */
export const API_5XX_THRESHOLD = 5;

export interface OperationsProps {
  deadLetterQueues: { name: string; queue: sqs.IQueue }[];
  stateMachines: { name: string; stateMachine: sfn.IStateMachine }[];
  functions: { label: string; fn: lambda.IFunction }[];
  api: { apiName: string; stageName: string };
  /** Subscribed to the alarm topic by e-mail. */
  alarmEmail?: string;
  /** Dashboard name. */
  dashboardName: string;
}

export class Operations extends Construct {
  readonly alarmTopic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id);
    this.alarmTopic = new sns.Topic(this, 'AlarmTopic', { displayName: 'Workflow service alarms', enforceSSL: true });
    if (props.alarmEmail) this.alarmTopic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
    const alarm = (alarmId: string, metric: cloudwatch.IMetric, threshold: number, description: string) => {
      const a = new cloudwatch.Alarm(this, alarmId, {
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      });
      a.addAlarmAction(new actions.SnsAction(this.alarmTopic));
      this.alarms.push(a);
      return a;
    };
    const period = Duration.minutes(5);

    const dlqMetrics = props.deadLetterQueues.map(({ name, queue }) => {
      const m = queue.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum', label: name });
      alarm(`${pascal(name)}DlqAlarm`, m, 0, `Messages in the dead-letter queue ${name}: inspect and redrive them before they expire (14 days)`);
      return m;
    });
    const sfnMetrics = props.stateMachines.flatMap(({ name, stateMachine }) => {
      const failed = stateMachine.metricFailed({ period, statistic: 'Sum', label: `${name} failed` });
      const timedOut = stateMachine.metricTimedOut({ period, statistic: 'Sum', label: `${name} timed out` });
      alarm(`${pascal(name)}ExecutionsFailedAlarm`, failed, 0, `Executions of the ${name} state machine failed`);
      alarm(`${pascal(name)}ExecutionsTimedOutAlarm`, timedOut, 0, `Executions of the ${name} state machine timed out`);
      return [failed, timedOut];
    });
    const groups: { label: string; fn: lambda.IFunction }[][] = [];
    for (let i = 0; i < props.functions.length; i += METRICS_PER_MATH_ALARM) groups.push(props.functions.slice(i, i + METRICS_PER_MATH_ALARM));
    const sumOf = (metric: 'Errors' | 'Throttles', group: { label: string; fn: lambda.IFunction }[], n: number) =>
      new cloudwatch.MathExpression({
        // ids unique across groups: the dashboard graphs every group's expression together
        expression: group.map((_, i) => `${metric.toLowerCase()}${n}m${i}`).join(' + '),
        usingMetrics: Object.fromEntries(group.map((f, i) => [`${metric.toLowerCase()}${n}m${i}`, f.fn.metric(metric, { period, statistic: 'Sum' })])),
        period,
        label: `${metric} (functions ${n * METRICS_PER_MATH_ALARM + 1}-${n * METRICS_PER_MATH_ALARM + group.length})`,
      });
    const lambdaErrors = groups.map((g, n) => {
      const e = sumOf('Errors', g, n);
      alarm(`LambdaErrors${n + 1}Alarm`, e, 0, `Lambda errors in: ${g.map((f) => f.label).join(', ')}`);
      return e;
    });
    const lambdaThrottles = groups.map((g, n) => {
      const t = sumOf('Throttles', g, n);
      alarm(`LambdaThrottles${n + 1}Alarm`, t, 0, `Lambda throttles (reserved or account concurrency reached) in: ${g.map((f) => f.label).join(', ')}`);
      return t;
    });
    const apiDims = { ApiName: props.api.apiName, Stage: props.api.stageName };
    const api5xx = new cloudwatch.Metric({ namespace: 'AWS/ApiGateway', metricName: '5XXError', dimensionsMap: apiDims, period, statistic: 'Sum', label: 'API 5xx' });
    const apiP99 = new cloudwatch.Metric({ namespace: 'AWS/ApiGateway', metricName: 'Latency', dimensionsMap: apiDims, period, statistic: 'p99', label: 'API latency p99' });
    alarm('Api5xxAlarm', api5xx, API_5XX_THRESHOLD, 'The API answered 5xx (function errors, timeouts after 29 s, throttling)');
    alarm('ApiLatencyP99Alarm', apiP99, API_LATENCY_P99_THRESHOLD_MS, `API p99 latency above ${API_LATENCY_P99_THRESHOLD_MS} ms (the gateway gives up at 29 s)`);

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', { dashboardName: props.dashboardName });
    const graph = (title: string, left: cloudwatch.IMetric[]) => new cloudwatch.GraphWidget({ title, left, width: 12 });
    this.dashboard.addWidgets(
      new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24 }),
      graph('API 5xx', [api5xx]),
      graph('API latency p99 (ms)', [apiP99]),
      graph('Dead-letter queues: visible messages', dlqMetrics),
      graph('Executions failed / timed out', sfnMetrics),
      graph('Lambda errors', lambdaErrors),
      graph('Lambda throttles', lambdaThrottles),
    );
  }
}
