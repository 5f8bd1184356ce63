import "server-only";
import { db } from "../db";
import { log } from "../log";
import { createCatalog } from "./catalog";
import { createGateway } from "./handler";

let instance: ((request: Request) => Promise<Response>) | undefined;

/** The process's gateway, built on first use so that importing it reads no configuration. */
export function handleGatewayRequest(request: Request): Promise<Response> {
  instance ??= createGateway({ catalog: createCatalog(db()), log });
  return instance(request);
}
