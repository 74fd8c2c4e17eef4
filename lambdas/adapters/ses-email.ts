// EmailSender on SES v2 (SendEmail, simple content). Locally the SDK reaches aws-ses-v2-local
// through AWS_ENDPOINT_URL_SESV2. With a configuration set (SES_CONFIGURATION_SET) SES records the
// message's bounces and complaints through the set's event destination.
import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { EmailSender } from '../domain/ports';
import { sesClient } from './aws-clients';

export class SesEmailSender implements EmailSender {
  constructor(
    private readonly from: string,
    private readonly configurationSet?: string,
  ) {}

  async send(mail: { to: string; cc?: string[]; replyTo?: string[]; subject: string; text: string }): Promise<void> {
    await sesClient().send(
      new SendEmailCommand({
        FromEmailAddress: this.from,
        ConfigurationSetName: this.configurationSet,
        Destination: { ToAddresses: [mail.to], CcAddresses: mail.cc?.length ? mail.cc : undefined },
        ReplyToAddresses: mail.replyTo?.length ? mail.replyTo : undefined,
        Content: { Simple: { Subject: { Data: mail.subject, Charset: 'UTF-8' }, Body: { Text: { Data: mail.text, Charset: 'UTF-8' } } } },
      }),
    );
  }
}
