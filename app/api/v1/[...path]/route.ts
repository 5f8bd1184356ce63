import { serveManagementApi } from "@/lib/management-api/serve";

export const dynamic = "force-dynamic";

export const GET = serveManagementApi;
export const POST = serveManagementApi;
export const PUT = serveManagementApi;
export const PATCH = serveManagementApi;
export const DELETE = serveManagementApi;
