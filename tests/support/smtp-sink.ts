import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = {
  /** the envelope's recipients, as the SMTP server was told them */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  event: string;
  eventId: string;
};

export type SmtpSink = {
  url: string;
  received: ReceivedMail[];
  /** messages whose DATA arrived but that the sink has not answered yet (see `hold`) */
  held: number;
  /** from now on, answer each message's DATA only when `release` is called */
  hold(): void;
  release(): void;
  /** refuse every recipient while set, with a temporary error (450) or the code given */
  refuse(reason: string | null, code?: number): void;
  /** resolves once `count` messages were received (or held) in all */
  waitFor(count: number): Promise<void>;
  close(): Promise<void>;
};

/** A real SMTP server (the `smtp-server` package) on a free local port that keeps every message it accepts, parsed. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  let holding = false;
  let refusal: { reason: string; code: number } | null = null;
  let arrivals = 0;
  let heldAnswers: (() => void)[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const arrived = () => {
    arrivals += 1;
    for (const waiter of waiters.filter((waiter) => arrivals >= waiter.count)) waiter.resolve();
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (!refusal) return callback();
      const error = Object.assign(new Error(refusal.reason), { responseCode: refusal.code });
      callback(error);
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          const answer = () => {
            received.push({
              to: session.envelope.rcptTo.map((recipient) => recipient.address),
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              subject: mail.subject ?? "",
              text: mail.text ?? "",
              html: mail.html || "",
              messageId: mail.messageId ?? "",
              event: String(mail.headers.get("x-gatehouse-event") ?? ""),
              eventId: String(mail.headers.get("x-gatehouse-event-id") ?? ""),
            });
            callback();
          };
          if (holding) heldAnswers.push(answer);
          else answer();
          arrived();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    get held() {
      return heldAnswers.length;
    },
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      const answers = heldAnswers;
      heldAnswers = [];
      for (const answer of answers) answer();
    },
    refuse(reason, code = 450) {
      refusal = reason === null ? null : { reason, code };
    },
    waitFor(count) {
      if (arrivals >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
