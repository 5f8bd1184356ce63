import "server-only";
import { createTransport } from "nodemailer";
import SMTPTransport from "nodemailer/lib/smtp-transport/index.js";
import { type Channel, type OutgoingDelivery, PermanentDeliveryError } from "./channels";
import { renderEmail } from "./email-message";
import { eventMessage } from "./registry";

export type EmailSettings = { smtpUrl: string; from: string; publicUrl: string; portalName: string };

/** Bounds one SMTP exchange well inside the worker's lease, so a stalled server costs a retry, not a stuck delivery. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * Email through the SMTP server of SMTP_URL. The Message-ID is the delivery's id, so a retried
 * delivery that the server had in fact accepted can be told apart as the same message.
 */
export function emailChannel(settings: EmailSettings): Channel {
  const transport = createTransport(new SMTPTransport({ url: settings.smtpUrl, ...TIMEOUTS }));
  return {
    name: "email",
    async send(delivery: OutgoingDelivery) {
      const email = renderEmail(eventMessage(delivery.event.type, delivery.event.payload), settings);
      await transport
        .sendMail({
          from: settings.from,
          to: delivery.address,
          subject: email.subject,
          text: email.text,
          html: email.html,
          messageId: `<${delivery.id}@gatehouse>`,
          date: delivery.event.occurredAt,
          headers: { "X-Gatehouse-Event": delivery.event.type, "X-Gatehouse-Event-Id": delivery.event.id },
        })
        .catch((error: Error & { responseCode?: number }) => {
          // 5xx is the server's final answer (an unknown mailbox, a refused sender); 4xx and lost connections may pass.
          throw error.responseCode && error.responseCode >= 500 ? new PermanentDeliveryError(error.message) : error;
        });
    },
    close() {
      transport.close();
    },
  };
}
