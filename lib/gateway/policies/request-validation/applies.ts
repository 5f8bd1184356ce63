import type { ApiPolicies } from "../policy-set";

/** Whether any policy of the API, its own or a route's, checks requests: only then are its documents' validators compiled. */
export function validatesRequests(policies: ApiPolicies): boolean {
  const checks = (mode: string | undefined) => mode === "enforce" || mode === "report";
  if (checks(policies.policies?.requestValidation?.mode)) return true;
  return Object.values(policies.routes ?? {}).some((set) => checks(set.requestValidation?.mode));
}
