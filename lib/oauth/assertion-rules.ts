/** RFC 7523 §2.2: a client assertion is a JWT bearer assertion. */
export const CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/** Asymmetric algorithms only: a shared-key HS256 assertion would need a secret, and `none` proves nothing. */
export const ASSERTION_ALGORITHMS = ["RS256", "PS256", "ES256", "EdDSA"];

/** A private_key_jwt assertion expires at most this far ahead, so its `jti` need only be remembered that long. */
export const MAX_ASSERTION_LIFETIME_SECONDS = 300;
