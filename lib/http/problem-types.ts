import { OAUTH_ERROR_STATUS, type OAuthErrorCode } from "./oauth-error-codes";

/**
 * Every problem type Gatehouse answers with, declared once: errors are raised
 * by code (`problem("token-expired", { detail })`), and the `/problems/{code}`
 * pages, the OpenAPI documents' problem examples and the try-it advice are
 * read from here, so a `type` URI and its page always agree.
 * Free of server-only imports: the Reference tab's client code reads it too.
 */
export type ProblemType = {
  status: number;
  title: string;
  /** what happened, in one or two sentences */
  explanation: string;
  /** what to do about it */
  advice: string;
};

export const PROBLEMS = {
  "token-missing": {
    title: "No access token",
    status: 401,
    explanation: "The request carried no Authorization header, and this API only answers callers with an access token.",
    advice:
      "Get a token from the token endpoint of the same environment with your client ID and secret, then send it as " +
      "`Authorization: Bearer <token>`. In the Reference tab, paste it under Authorize.",
  },
  "token-malformed": {
    title: "Authorization header is not a bearer token",
    status: 400,
    explanation: "The Authorization header was present but did not have the form `Bearer <token>`.",
    advice:
      "Send exactly `Authorization: Bearer ` followed by the access_token value from the token response, with no " +
      "quotes, no line breaks and no other scheme such as Basic.",
  },
  "token-invalid": {
    title: "Access token is not valid",
    status: 401,
    explanation: "The token's signature, algorithm, issuer, audience or type did not check out, so it was not issued by this gateway for this API.",
    advice: "Request a fresh token from this environment's token endpoint and send it unchanged; do not edit or re-sign tokens.",
  },
  "token-expired": {
    title: "Access token has expired",
    status: 401,
    explanation: "The token was valid once, but its lifetime (usually one hour) is over.",
    advice:
      "Request a new token from the token endpoint. Clients should keep the token until shortly before `expires_in` " + "runs out and then fetch the next one.",
  },
  "token-wrong-environment": {
    title: "Token belongs to another environment",
    status: 401,
    explanation:
      "The token was issued by the token endpoint of a different environment than the one called. Each environment " + "has its own keys and credentials.",
    advice:
      "Either call the environment the token belongs to, or get a token from the token endpoint of the environment " +
      "you are calling, with a credential created for that environment. The environment switcher on the API page " +
      "moves the server and the token endpoint together.",
  },
  "token-revoked": {
    title: "Access token or credential was revoked",
    status: 401,
    explanation: "The token was revoked, or the credential it was issued to has been revoked since.",
    advice:
      "If you revoked it on purpose, request a new token. If the credential itself was revoked, create a new one " +
      "under Settings → Client Credentials, or ask for one through Contact Us.",
  },
  "dpop-proof-invalid": {
    title: "DPoP proof is not valid",
    status: 401,
    explanation:
      "The call carried a DPoP-bound token, but its DPoP proof (RFC 9449) failed a check: the `check` member names which " +
      "(header, typ, alg, jwk, signature, claims, htm, htu, iat, ath, jkt or jti).",
    advice:
      "Send `Authorization: DPoP <token>` and exactly one `DPoP` header holding a new proof for every call: typ `dpop+jwt`, " +
      "signed with the key the token is bound to, with htm the method, htu the URL called without its query, iat now, a " +
      "new jti, and ath the base64url SHA-256 of the token. A DPoP library (oauth4webapi, dpop) does all of this.",
  },
  "dpop-nonce-required": {
    title: "DPoP proof needs the server's nonce",
    status: 401,
    explanation: "This environment requires a server nonce in DPoP proofs, and the proof carried none, or one that is no longer current.",
    advice: "Send the call again with a new proof whose `nonce` claim is the value of the answer's `DPoP-Nonce` header; nonces rotate every few minutes.",
  },
  "dpop-token-bound": {
    title: "DPoP-bound token sent as a bearer token",
    status: 401,
    explanation: "The token is bound to a DPoP key (its `cnf.jkt` claim), so it only works with a proof of that key, never as a bearer token.",
    advice: "Send it as `Authorization: DPoP <token>` with a `DPoP` proof signed by the key you used at the token endpoint.",
  },
  "api-key-invalid": {
    title: "API key is not valid",
    status: 401,
    explanation:
      "The API key's format or checksum is wrong, or no active key of this environment matches it: it was revoked, " +
      "reported leaked, or belongs to another environment.",
    advice:
      "Send the key exactly as it was shown when it was created, as `X-API-Key: gk_…` or `Authorization: Bearer gk_…`, to the " +
      "environment it was created for. Create or roll a key under Settings → API keys.",
  },
  "api-key-expired": {
    title: "API key has expired",
    status: 401,
    explanation: "The key reached the expiry it was created with, or the end of the overlap a roll gave it.",
    advice: "Use the key that replaced it, or create a new one under Settings → API keys.",
  },
  "api-key-inactive": {
    title: "API key is no longer active",
    status: 409,
    explanation: "Only an active key can be rolled: this one is revoked or expired.",
    advice: "Create a new key for the application and environment instead.",
  },
  "secret-scanning-signature-invalid": {
    title: "Secret scanning report not signed by GitHub",
    status: 401,
    explanation:
      "A report to /api/secret-scanning must carry Github-Public-Key-Identifier and Github-Public-Key-Signature, an ECDSA P-256 " +
      "SHA-256 signature of the body by one of the keys published at SECRET_SCANNING_KEYS_URL; this one did not verify.",
    advice: "Only GitHub's secret scanning sends these reports; check SECRET_SCANNING_KEYS_URL if GitHub's own reports are refused.",
  },
  "api-key-last": {
    title: "Last active API key",
    status: 409,
    explanation: "An application keeps at least one active key in an environment, so its callers are not cut off by accident.",
    advice: "Roll the key instead, or revoke it saying so: `last: true` in the body, or `key revoke <id> --last`.",
  },
  "api-not-granted": {
    title: "API not granted to this client",
    status: 403,
    explanation: "The token is valid, but the credential behind it has not been granted access to this API.",
    advice: "Request access to this API for your credential through Contact Us; an administrator grants it.",
  },
  "scope-missing": {
    title: "Token lacks the required scope",
    status: 403,
    explanation: "The token is valid for this API but does not carry the scope this operation needs; the response names it.",
    advice:
      "Request a new token with that scope (`scope=...` in the token request). If the token endpoint answers " +
      "`invalid_scope`, your credential lacks the scope: ask for it through Contact Us.",
  },
  "rate-limited": {
    title: "Too many requests",
    status: 429,
    explanation: "This client sent more requests than its rate limit in this environment allows.",
    advice: "Wait the number of seconds in the `Retry-After` header before retrying, and spread requests out over time.",
  },
  "quota-exceeded": {
    title: "Quota exceeded",
    status: 429,
    explanation: "This subscription used every request its plan allows in the current period (an hour, a day or a month, in UTC).",
    advice: "Wait until the time in the `Retry-After` header, when the next period starts, or subscribe the application to a plan with a larger quota.",
  },
  "subscription-required": {
    title: "Subscription required",
    status: 403,
    explanation: "This API is offered under plans, and the application behind the credential has no subscription to one of them in this environment.",
    advice: "Subscribe the application to one of the API's plans on the API's page in the portal.",
  },
  "not-found": {
    title: "Not found",
    status: 404,
    explanation:
      "The environment, the API or the resource does not exist, or the resource belongs to another client " + "(which looks exactly the same on purpose).",
    advice: "Check the environment and API in the URL and the id of the resource; list resources first to find valid ids.",
  },
  "validation-failed": {
    title: "Request is not valid",
    status: 400,
    explanation: "A parameter or the body failed validation; `errors[]` names each failing field and where it was found.",
    advice: "Fix the fields listed in `errors[]` (their names, allowed values and formats are in the Reference) and send the request again.",
  },
  "request-invalid": {
    title: "Request does not match the API's OpenAPI document",
    status: 400,
    explanation:
      "The API checks each call against its operation in the OpenAPI document of the version called, and this call failed: " +
      "`errors[]` lists each failure (at most 20), `in` one of `body`, `query`, `path`, `header`, with a JSON `pointer` into the body or the parameter's `name`. " +
      "The call did not reach the API.",
    advice:
      "Compare the request with the operation in the API's Reference: the parameters' types and styles, the required body, " +
      "the `Content-Type` among the declared media types, and the body's fields. Fix what `errors[]` names and send it again.",
  },
  "method-not-allowed": {
    title: "Method not allowed",
    status: 405,
    explanation: "The path exists but does not accept this HTTP method.",
    advice: "Use one of the methods listed in the `Allow` header.",
  },
  "precondition-failed": {
    title: "Resource changed since you read it",
    status: 412,
    explanation: "The `If-Match` header did not match the resource's current ETag: someone changed it after you read it.",
    advice: "Fetch the resource again, re-apply your change to the fresh copy and retry with its new ETag.",
  },
  "payload-too-large": {
    title: "Request body too large",
    status: 413,
    explanation: "The request body is larger than this endpoint accepts.",
    advice: "Send only the fields the operation documents; bodies are small JSON objects.",
  },
  "unsupported-media-type": {
    title: "Unsupported content type",
    status: 415,
    explanation: "The body was not sent in a format this operation accepts.",
    advice: "Send the body as JSON with `Content-Type: application/json`.",
  },
  "upstream-unreachable": {
    title: "API behind the gateway is unreachable",
    status: 502,
    explanation: "The gateway accepted the request but could not reach the service that implements the API.",
    advice: "Retry in a little while. If it persists, report it through Contact Us with the request id.",
  },
  "upstream-unavailable": {
    title: "API behind the gateway is unavailable",
    status: 503,
    explanation:
      "Every target of the service that implements the API is out of service: failing its health checks, ejected after failures, drained, or behind an open circuit breaker.",
    advice: "Retry after the number of seconds in the `Retry-After` header. If it persists, report it through Contact Us with the request id.",
  },
  "upstream-invalid-response": {
    title: "API behind the gateway answered with an invalid response",
    status: 502,
    explanation:
      "The service that implements the API answered with something the gateway does not pass on: a status outside 100–599, a redirect to a host it may not name, or a body that broke off.",
    advice: "Report it through Contact Us with the request id; the API's owner has to fix the service.",
  },
  "client-closed-request": {
    title: "Client closed the request",
    status: 499,
    explanation:
      "The client closed the connection before its request body arrived whole, so the gateway stopped forwarding it. The request log records it as 499, the convention nginx started.",
    advice: "Send the whole request body before waiting for the answer, and keep the connection open until the answer arrives.",
  },
  "api-version-retired": {
    title: "API version or operation is retired",
    status: 410,
    explanation:
      "The version of the API called, or the operation, was deprecated and its sunset date has passed, or it was retired. Before the sunset its answers carried `Deprecation`, `Sunset` and `Link` headers announcing this.",
    advice:
      "Move to the successor the response names (`successor`, with its page in `successorUrl`): its Reference in the portal shows what it offers. Calls to the retired version will not work again.",
  },
  "upstream-timeout": {
    title: "API behind the gateway did not answer in time",
    status: 504,
    explanation: "The service that implements the API did not answer within the gateway's timeout.",
    advice: "Retry in a little while. If it persists, report it through Contact Us with the request id.",
  },
  "websocket-not-enabled": {
    title: "WebSocket not enabled here",
    status: 400,
    explanation:
      "The request asked to upgrade to a WebSocket, but no WebSocket policy applies to this API's route, so the gateway neither tunnels it nor answers it as plain HTTP.",
    advice:
      "Open WebSockets only on the routes the API documents as WebSocket endpoints, or ask the API's owner to enable the WebSocket policy for this route.",
  },
  "websocket-connection-limit": {
    title: "Too many open WebSocket connections",
    status: 429,
    explanation: "This client already holds as many open WebSocket connections to the API in this environment as its WebSocket policy allows.",
    advice: "Close a connection you no longer use before opening another, or share one connection between the parts of your application.",
  },
  conflict: {
    title: "Changed by someone else meanwhile",
    status: 409,
    explanation: "The resource kept changing while your update was applied, so it was not applied.",
    advice: "Send the same request again.",
  },
  "internal-error": {
    title: "Internal server error",
    status: 500,
    explanation: "The server failed to answer this request. Nothing you sent caused it.",
    advice: "Retry once. If it happens again, report it through Contact Us and quote the request id.",
  },
  "database-unavailable": {
    title: "Database unavailable",
    status: 503,
    explanation: "Gatehouse cannot reach its database right now.",
    advice: "Retry in a little while. If it persists, tell the operators of this Gatehouse.",
  },
  "not-ready": {
    title: "Not ready",
    status: 503,
    explanation: "This Gatehouse instance cannot reach a service it depends on (its database, or Redis where one is configured); the answer names which.",
    advice: "A load balancer or orchestrator sends traffic elsewhere meanwhile. Operators: check the services named in `down`.",
  },
  "metrics-token-required": {
    title: "Metrics token required",
    status: 401,
    explanation: "The metrics of this Gatehouse are read with the bearer token its operators set in `METRICS_TOKEN`.",
    advice: "Send `Authorization: Bearer <METRICS_TOKEN>`, as the scrape example in docs/metrics-and-tracing.md does.",
  },
  unauthenticated: {
    title: "Sign in first",
    status: 401,
    explanation: "This portal action needs a signed-in user, and the request carried no valid session.",
    advice: "Sign in to the portal and try again; sessions end after a while or when you sign out.",
  },
  forbidden: {
    title: "Not allowed for your role",
    status: 403,
    explanation: "You are signed in, but this portal action needs another role, such as administrator.",
    advice: "Ask an administrator to do it, or to change your role.",
  },
  "mcp-origin-not-allowed": {
    title: "Origin not allowed",
    status: 403,
    explanation:
      "An MCP server answers a browser's request only from this Gatehouse's own origins: MCP's transport requires refusing any other Origin, so that a page on another site cannot reach the server through DNS rebinding.",
    advice: "Call the MCP server from an MCP client, which sends no Origin header, or from a page of this Gatehouse's own origin.",
  },
  "cross-site-request": {
    title: "Cross-site request refused",
    status: 403,
    explanation: "Changes in the portal are accepted only from the portal's own pages; this request came from elsewhere.",
    advice: "Make the change from the portal itself. Scripts should call the APIs through the gateway instead.",
  },
  "approval-required": {
    title: "Approval required",
    status: 403,
    explanation: "Credentials for this environment are not self-service: an administrator approves each one.",
    advice: "Request them through Contact Us; once approved, you generate the secret yourself under Settings.",
  },
  "credential-exists": {
    title: "Credential already exists",
    status: 409,
    explanation: "This application already has an active credential in that environment.",
    advice: "Rotate the existing credential's secret, or revoke it before creating a new one.",
  },
  "credential-revoked": {
    title: "Credential revoked",
    status: 409,
    explanation: "The credential has been revoked and can no longer get secrets or tokens.",
    advice: "Create a new credential under Settings → Client Credentials, or request one through Contact Us.",
  },
  "credential-without-secrets": {
    title: "Credential has no secrets",
    status: 409,
    explanation:
      "The credential's client authenticates with its keys (private_key_jwt) or with a trusted issuer's ID tokens, so it has no secret to issue or rotate.",
    advice:
      "Sign a client assertion with your key, or send your platform's ID token, to the token endpoint; to use a secret, create a credential without keys.",
  },
  "secret-exists": {
    title: "Secret already exists",
    status: 409,
    explanation: "The credential already has a secret; a first secret can be generated only once.",
    advice: "Rotate the secret instead: the old one stays valid for the grace period you choose.",
  },
  "plan-not-offered": {
    title: "Plan not offered",
    status: 422,
    explanation: "The API does not offer this plan, or is not available in this environment.",
    advice: "Pick one of the plans the API's page lists, in an environment the API is offered in.",
  },
  "subscription-pending": {
    title: "Subscription already requested",
    status: 409,
    explanation: "A request for this application's subscription to this API in this environment is waiting for an administrator.",
    advice: "Wait for the pending request to be decided; the current plan holds until then.",
  },
  "already-decided": {
    title: "Request already decided",
    status: 409,
    explanation: "Another administrator approved or rejected this access request first.",
    advice: "Reload the queue to see its current status.",
  },
  "requester-without-account": {
    title: "Requester has no account",
    status: 409,
    explanation:
      "Approving provisions a credential for the requester's account, but the request was sent without signing in (or by a disabled account), so it names no account to provision into.",
    advice: "Ask the requester to sign in and send the request again from Contact Us, then approve that one.",
  },
  "webhook-disabled": {
    title: "Webhook endpoint disabled",
    status: 409,
    explanation: "The endpoint is disabled, by a team admin or because it answered 410 Gone, so nothing is sent to it.",
    advice: "Enable the endpoint under Settings → Webhooks, then replay the delivery.",
  },
  "own-account": {
    title: "Cannot change your own account",
    status: 409,
    explanation: "Administrators cannot change their own role or access, so nobody locks themselves out.",
    advice: "Ask another administrator to make the change.",
  },
  "team-role-required": {
    title: "Your team role does not allow this",
    status: 403,
    explanation:
      "The application belongs to a team you are a member of, but this action needs a higher role: admins manage applications and credentials, owners manage members.",
    advice: "Ask an owner of the team, listed under Settings → Teams, to do it or to change your role.",
  },
  "last-team-owner": {
    title: "A team keeps at least one owner",
    status: 409,
    explanation: "The change would leave the team without an owner: the last owner cannot leave, be removed or take another role.",
    advice: "Make another member an owner first, or delete the team once it owns no applications.",
  },
  "team-has-applications": {
    title: "Team still owns applications",
    status: 409,
    explanation: "A team is deleted only once it owns no applications, so no credential loses the people who manage it.",
    advice: "Ask an administrator to move or delete the team's applications, then delete the team.",
  },
  "invitation-unusable": {
    title: "Invitation no longer usable",
    status: 410,
    explanation:
      "Invitation links work once, for 7 days, while whoever sent them is still an owner of the team; this one was accepted already, cancelled, is older than that, or its sender is no longer an owner.",
    advice: "Ask an owner of the team for a fresh invitation.",
  },
  "personal-team": {
    title: "A personal team is not shared",
    status: 409,
    explanation: "A user's personal team holds their own applications and has them alone as its member: nobody can be invited into it.",
    advice: "Create a team under Settings → Teams, invite people there and create the shared applications in it.",
  },
  "invitation-other-email": {
    title: "Invitation is for another email",
    status: 403,
    explanation: "An invitation can be accepted only by the signed-in user whose email it was sent to.",
    advice: "Sign in with the invited email address, or ask the team's owner to invite the address you use.",
  },
  "malformed-request": {
    title: "Malformed HTTP request",
    status: 400,
    explanation: "The server could not parse the request itself: its request line, a header or the chunked body framing breaks HTTP/1.1.",
    advice: "Send requests through an HTTP library rather than writing them by hand; the connection was closed after this answer.",
  },
  "request-timeout": {
    title: "Request took too long to arrive",
    status: 408,
    explanation: "The request's headers or body did not arrive in time, so the server stopped waiting for them.",
    advice: "Send the whole request at once, and retry on a fresh connection.",
  },
  "malformed-path": {
    title: "Malformed path",
    status: 400,
    explanation:
      "The request's path can be read more than one way, so it names no one page or resource: it has an empty segment (//), a dot segment (., .., also percent-encoded or with ;parameters), an encoded / or \\ inside a segment, double encoding such as %252e, a percent sign without two hexadecimal digits or escapes that do not spell UTF-8; or it is a full URL rather than a path; or it spells an API version otherwise than its name (V1, v1;x=1).",
    advice:
      "Send the path as a browser would: no // or dot segments, each segment percent-encoded once (encodeURIComponent in JavaScript, urllib.parse.quote in Python), the version exactly as the API names it.",
  },
  "uri-too-long": {
    title: "URL too long",
    status: 414,
    explanation: "The request line, with its path and query string, is longer than the server reads.",
    advice: "Keep query strings short; send large inputs in a request body where the operation accepts one.",
  },
  "expectation-failed": {
    title: "Expectation not met",
    status: 417,
    explanation: "The request's `Expect` header asked for something other than `100-continue`, the one expectation HTTP defines and the server meets.",
    advice: "Send the request without the `Expect` header, or with `Expect: 100-continue` only.",
  },
  "headers-too-large": {
    title: "Request headers too large",
    status: 431,
    explanation: "The request's header fields together are larger than the server reads (16 KiB), often because of an oversized token or cookie.",
    advice: "Send the access_token exactly as the token endpoint returned it, and drop cookies the API does not need.",
  },
  "too-many-requests": {
    title: "Too many attempts",
    status: 429,
    explanation: "You sent more portal messages or sign-ups than allowed in a short time.",
    advice: "Wait the time given in the answer (the `Retry-After` header) before sending another.",
  },
  "signup-closed": {
    title: "Sign-up is closed",
    status: 403,
    explanation: "This portal does not let visitors register (`SIGNUP=closed`); administrators create accounts.",
    advice: "Ask an administrator of the portal for an account.",
  },
  "access-token-required": {
    title: "Personal access token required",
    status: 401,
    explanation: "The management API (/api/v1) answers only requests with a personal access token; portal session cookies are not accepted there.",
    advice: "Create a token under Settings → Access tokens (or with `admin token create`) and send it as `Authorization: Bearer gpat_…`.",
  },
  "access-token-invalid": {
    title: "Personal access token is not valid",
    status: 401,
    explanation: "The token is unknown, expired or revoked, or its owner's account is disabled.",
    advice: "Create a new token under Settings → Access tokens and send it unchanged.",
  },
  "access-token-scope-missing": {
    title: "Personal access token lacks the scope",
    status: 403,
    explanation:
      "The token is valid but was not created with the scope this operation needs (admin scopes also need the ADMIN role); the answer names the scope.",
    advice: "Create a token with that scope under Settings → Access tokens.",
  },
  "access-token-rate-limited": {
    title: "Too many requests with this token",
    status: 429,
    explanation: "This personal access token sent more requests than the management API allows per token.",
    advice: "Wait the number of seconds in the `Retry-After` header before retrying, and spread requests out over time.",
  },
  "portal-unavailable": {
    title: "Portal unavailable",
    status: 502,
    explanation: "The server took the request but its portal part did not answer, for instance while it restarts.",
    advice: "Retry in a little while. If it persists, report it through Contact Us with the request id.",
  },
} as const satisfies Record<string, ProblemType>;

export type ProblemCode = keyof typeof PROBLEMS;

export function isProblemCode(code: string): code is ProblemCode {
  return Object.hasOwn(PROBLEMS, code);
}

/**
 * The token endpoint answers RFC 6749 errors, not problem documents, but they
 * fail try-it calls just the same; their advice lives here beside the problems.
 */
export const OAUTH_ERROR_ADVICE = {
  invalid_client: {
    title: "Client authentication failed",
    status: OAUTH_ERROR_STATUS.invalid_client,
    explanation:
      "The client ID or secret is wrong, the credential was revoked, or it belongs to another environment; the token " +
      "endpoint does not say which, on purpose.",
    advice:
      "Check that the credential was created for this environment and that you copied the secret in full. Send them " +
      "either with HTTP Basic authentication or as client_id and client_secret in the body, not both.",
  },
  invalid_scope: {
    title: "Scope not granted",
    status: OAUTH_ERROR_STATUS.invalid_scope,
    explanation: "The requested scope is unknown or not granted to this credential.",
    advice: "Leave `scope` out to get every scope you hold, or ask for the missing one through Contact Us.",
  },
  invalid_request: {
    title: "Malformed token request",
    status: OAUTH_ERROR_STATUS.invalid_request,
    explanation: "A field is missing or repeated, or the client authenticated twice (or not at all).",
    advice: "Send `grant_type=client_credentials` as a form body, and your credentials once: HTTP Basic or in the body.",
  },
  unsupported_grant_type: {
    title: "Grant type not supported",
    status: OAUTH_ERROR_STATUS.unsupported_grant_type,
    explanation: "The token endpoint only supports the client credentials grant.",
    advice: "Send `grant_type=client_credentials`.",
  },
} as const satisfies Partial<Record<OAuthErrorCode, ProblemType>>;
