import { gatewayInNextDev } from "@/lib/gateway/next-dev-route";

// `next dev` serves the gateway through this route. Production's server answers the
// gateway's paths itself, and this route answers 404 there.
export const dynamic = "force-dynamic";

export {
  gatewayInNextDev as GET,
  gatewayInNextDev as HEAD,
  gatewayInNextDev as POST,
  gatewayInNextDev as PUT,
  gatewayInNextDev as PATCH,
  gatewayInNextDev as DELETE,
  gatewayInNextDev as OPTIONS,
};
