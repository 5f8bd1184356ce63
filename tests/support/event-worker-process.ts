// The delivery worker alone, in a process of its own, against DATABASE_URL and the SMTP
// server of SMTP_URL, with the lease of LEASE_MS: what a test can SIGKILL mid-delivery.
// SIGTERM stops it as the portal stops it, and it exits 0.
import { createDb } from "../../lib/db";
import { startDeliveryWorker } from "../../lib/events/delivery-worker";
import { emailChannel } from "../../lib/events/email-channel";

const db = createDb(process.env.DATABASE_URL ?? "");
const worker = startDeliveryWorker({
  db,
  channels: [
    emailChannel({ smtpUrl: process.env.SMTP_URL ?? "", from: "portal@example.test", publicUrl: "https://portal.example.test", portalName: "Portal" }),
  ],
  leaseMs: Number(process.env.LEASE_MS),
  batchSize: 5,
  pollMs: 100,
});
console.log(`worker ${worker.owner} started`);
// The worker's poll timer is unref'd so that it never holds the portal open; alone, this
// process must stay up until SIGTERM, or it would exit between polls with leases still to expire.
const keepAlive = setInterval(() => {}, 60_000);
process.once("SIGTERM", () => {
  clearInterval(keepAlive);
  worker
    .stop()
    .then(() => db.$disconnect())
    .then(() => process.exit(0));
});
