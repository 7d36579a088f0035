import type { AppConfig } from '../config';
import { logger } from '../logging/logger';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

// `send` resolves true when the mail server accepted the message, false when it was not sent.
export interface Mailer {
  readonly configured: boolean;
  send(message: MailMessage): Promise<boolean>;
}

const DEFAULT_FROM = 'Super-app <no-reply@superapp.local>';

// SMTP through nodemailer (loaded on first send). Without SMTP_HOST, or with OTP_CHANNEL=console,
// nothing is sent and only the recipient and subject are logged: mail bodies carry codes.
export function createMailer(config: Readonly<AppConfig>): Mailer {
  if (!config.SMTP_HOST || config.OTP_CHANNEL === 'console') {
    return {
      configured: false,
      async send(message) {
        logger.info('mail not sent (no SMTP transport)', { to: message.to, subject: message.subject });
        return false;
      },
    };
  }
  const host = config.SMTP_HOST;
  let transport: import('nodemailer').Transporter | undefined;
  const transporter = () => {
    if (!transport) {
      const nodemailer = require('nodemailer') as typeof import('nodemailer');
      transport = nodemailer.createTransport({
        host,
        port: config.SMTP_PORT,
        secure: config.SMTP_PORT === 465,
        auth: config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASS ?? '' } : undefined,
        connectionTimeout: 5000,
        greetingTimeout: 5000,
        socketTimeout: 10000,
      });
    }
    return transport;
  };
  return {
    configured: true,
    async send(message) {
      try {
        await transporter().sendMail({ from: config.SMTP_FROM ?? DEFAULT_FROM, ...message });
        return true;
      } catch (err) {
        logger.warn('mail delivery failed', { to: message.to, subject: message.subject, error: (err as Error).message });
        return false;
      }
    },
  };
}
