/** What seeding created that the operator must see once: the demo accounts' passwords and the demo credential. */
export type SeedReport = string[];

export function printSeedReport(report: SeedReport): void {
  if (report.length === 0) return;
  console.log(
    [
      "",
      "Gatehouse demo data (shown once; not logged or stored):",
      ...report,
      "",
      "Lost a password? npm run --silent admin -- user set-password --email <email> --generate",
      "",
    ].join("\n"),
  );
}

/** `npm run db:seed` */
