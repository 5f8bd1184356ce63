// Realistic notification text for the benchmark's data: titles of 3–8 words,
// bodies of 15–45 words, mixed categories and severities, half with a link.
// Seeded, so every run loads the same data.
import { NOTIFICATION_CATEGORIES, NOTIFICATION_SEVERITIES } from "../../lib/notifications/schemas";

const WORDS = (
  "account access alert api billing build certificate change client credential deploy deadline deprecated " +
  "endpoint environment error expires failed gateway incident invoice key latency limit maintenance " +
  "migration monthly new notice outage payment plan policy production quota rate release renewal " +
  "request resolved review rotate scheduled secret security service signing status subscription " +
  "suspended token update upgrade usage version warning window workspace your the a of to for in on"
).split(" ");

/** A small deterministic generator (mulberry32), so the data is the same in every run. */
export function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function words(random: () => number, min: number, max: number): string {
  const count = min + Math.floor(random() * (max - min + 1));
  return Array.from({ length: count }, () => pick(random, WORDS)).join(" ");
}

export function notificationText(random: () => number) {
  const title = words(random, 3, 8);
  return {
    title: title[0]!.toUpperCase() + title.slice(1),
    body: `${words(random, 15, 45)}.`,
    category: pick(random, NOTIFICATION_CATEGORIES),
    severity: pick(random, NOTIFICATION_SEVERITIES),
    link: random() < 0.5 ? `https://portal.example.com/notices/${Math.floor(random() * 1e6)}` : null,
  };
}
