import { serveSecretScanningReport } from "@/lib/credentials/secret-scanning-route";

export const dynamic = "force-dynamic";

export const POST = serveSecretScanningReport;
