import { handleGatewayRequest } from "@/lib/gateway";

// Production sends /gw/* straight to the gateway (server.ts); this mounts the
// same handler so `next dev` serves the gateway too.
export const dynamic = "force-dynamic";

export {
  handleGatewayRequest as GET,
  handleGatewayRequest as HEAD,
  handleGatewayRequest as POST,
  handleGatewayRequest as PUT,
  handleGatewayRequest as PATCH,
  handleGatewayRequest as DELETE,
  handleGatewayRequest as OPTIONS,
};
