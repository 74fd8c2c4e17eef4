// Notification e-mail. NotificationIdentity: when the deployment names a from-address or a domain,
// the SES email identity (so a deploy sends mail without console steps; a domain's DKIM records are
// stack outputs to add to its DNS) and a configuration set whose event destination, an SNS topic,
// records bounces, complaints, rejects and delivery delays.
// bindEmailSender() lets a function send through SES v2 and sets SES_FROM_ADDRESS (and
// SES_CONFIGURATION_SET) in one call. The grant is ses:SendEmail conditioned on ses:FromAddress:
// the function can only send as the service's from-address, whatever identities the account has.
// In the SES sandbox recipients must be verified too (README).
import { CfnOutput, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { setConfigEnv } from './base-function';

/** lambdas/config.ts's SES_FROM_ADDRESS default: the address functions send as when none is configured. */
export const DEFAULT_FROM_ADDRESS = 'notifications@wps.local';

/** SES events the configuration set records (sends and deliveries are not: their volume is the mail's). */
export const RECORDED_MAIL_EVENTS = [ses.EmailSendingEvent.BOUNCE, ses.EmailSendingEvent.COMPLAINT, ses.EmailSendingEvent.REJECT, ses.EmailSendingEvent.DELIVERY_DELAY, ses.EmailSendingEvent.RENDERING_FAILURE];

export interface NotificationIdentityProps {
  /** The from-address (an address identity unless fromDomain is given, then it must be in that domain). */
  fromAddress?: string;
  /** A domain identity (DKIM records in the outputs); the from-address defaults to notifications@<domain>. */
  fromDomain?: string;
  /** Physical name of the configuration set. */
  configurationSetName: string;
}

/** What a sender needs: the address it sends as, and the configuration set when there is one. */
export interface EmailSending {
  fromAddress: string;
  configurationSetName?: string;
}

export class NotificationIdentity extends Construct {
  readonly identity: ses.EmailIdentity;
  readonly configurationSet: ses.ConfigurationSet;
  /** Receives the recorded mail events (subscribe to watch bounces and complaints). */
  readonly mailEvents: sns.Topic;
  readonly sending: EmailSending;

  constructor(scope: Construct, id: string, props: NotificationIdentityProps) {
    super(scope, id);
    const { fromAddress, fromDomain } = props;
    if (!fromAddress && !fromDomain) throw new Error('NotificationIdentity needs fromAddress or fromDomain');
    if (fromAddress && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(fromAddress)) throw new Error(`notification from-address ${fromAddress} is not an e-mail address`);
    if (fromDomain && !/^(?=.{1,253}$)([a-z0-9-]+\.)+[a-z]{2,}$/i.test(fromDomain)) throw new Error(`notification domain ${fromDomain} is not a domain name`);
    if (fromAddress && fromDomain && !fromAddress.toLowerCase().endsWith(`@${fromDomain.toLowerCase()}`)) {
      throw new Error(`notification from-address ${fromAddress} is not in the domain ${fromDomain}`);
    }
    this.mailEvents = new sns.Topic(this, 'MailEvents', { displayName: 'Workflow service mail bounces and complaints', enforceSSL: true });
    this.configurationSet = new ses.ConfigurationSet(this, 'ConfigurationSet', {
      configurationSetName: props.configurationSetName,
      reputationMetrics: true,
      suppressionReasons: ses.SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
    this.configurationSet.addEventDestination('MailEventsToSns', {
      destination: ses.EventDestination.snsTopic(this.mailEvents),
      events: RECORDED_MAIL_EVENTS,
    });
    this.identity = new ses.EmailIdentity(this, 'Identity', {
      identity: fromDomain ? ses.Identity.domain(fromDomain) : ses.Identity.email(fromAddress!),
      configurationSet: this.configurationSet,
    });
    this.sending = { fromAddress: fromAddress ?? `notifications@${fromDomain}`, configurationSetName: props.configurationSetName };
    if (fromDomain) {
      this.identity.dkimRecords.forEach((r, i) => {
        new CfnOutput(this, `DkimRecord${i + 1}`, { value: `${r.name} CNAME ${r.value}`, description: `DKIM record ${i + 1} to add to the DNS of ${fromDomain}` });
      });
    }
  }
}

/**
 * ses:SendEmail as `sending.fromAddress` only (ses:FromAddress), on the account's identities and
 * configuration sets in the region; SES_FROM_ADDRESS and SES_CONFIGURATION_SET set alongside.
 */
export function bindEmailSender(fn: lambda.Function, sending: EmailSending): void {
  const stack = Stack.of(fn);
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      actions: ['ses:SendEmail'],
      resources: [
        stack.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' }),
        stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: '*' }),
      ],
      conditions: { StringEquals: { 'ses:FromAddress': sending.fromAddress } },
    }),
  );
  setConfigEnv(fn, 'SES_FROM_ADDRESS', sending.fromAddress);
  if (sending.configurationSetName) setConfigEnv(fn, 'SES_CONFIGURATION_SET', sending.configurationSetName);
}
