import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { config } from "../config";
import { db } from "../db";
import { safeRedirectUrl } from "./return-path";
import { AWAITING_APPROVAL, linkSsoUser, verifyPasswordSignIn } from "./sign-in";

// next-auth builds its callback URLs from NEXTAUTH_URL; the public origin is ours to decide.
process.env.NEXTAUTH_URL ??= config().publicUrl;

export const GLOBAL_SSO_PROVIDER_ID = "global-sso";

const credentialsSchema = z.object({ email: z.email().max(320), password: z.string().min(1).max(200) });

/** Error message next-auth hands back to the login form when sign-ins are throttled. */
export const THROTTLED_ERROR = "TooManyAttempts";
/** Error message next-auth hands back to the login form for a right password of a sign-up still waiting for approval. */
export const AWAITING_APPROVAL_ERROR = "AwaitingApproval";

function globalSsoProvider(): NextAuthOptions["providers"] {
  const oidc = config().oidc;
  if (!oidc) return [];
  return [
    {
      id: GLOBAL_SSO_PROVIDER_ID,
      name: "Global SSO",
      type: "oauth",
      wellKnown: `${oidc.issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`,
      clientId: oidc.clientId,
      clientSecret: oidc.clientSecret,
      authorization: { params: { scope: "openid email profile" } },
      idToken: true,
      checks: ["pkce", "state"],
      profile(profile: { sub: string; email?: string; name?: string }) {
        return { id: profile.sub, email: profile.email ?? null, name: profile.name ?? profile.email ?? profile.sub };
      },
    },
  ];
}

export function authOptions(): NextAuthOptions {
  return {
    secret: config().authSecret,
    session: { strategy: "jwt", maxAge: 8 * 60 * 60 },
    pages: { signIn: "/login", error: "/login" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, request) {
          const parsed = credentialsSchema.safeParse(credentials);
          if (!parsed.success) return null;
          const headers = (request?.headers ?? {}) as Record<string, string | undefined>;
          const outcome = await verifyPasswordSignIn({ db: db(), email: parsed.data.email, password: parsed.data.password, headers });
          if (outcome === "throttled") throw new Error(THROTTLED_ERROR);
          if (outcome === AWAITING_APPROVAL) throw new Error(AWAITING_APPROVAL_ERROR);
          return outcome;
        },
      }),
      ...globalSsoProvider(),
    ],
    callbacks: {
      async redirect({ url, baseUrl }) {
        return safeRedirectUrl(url, baseUrl);
      },
      async signIn({ account, profile }) {
        if (account?.provider !== GLOBAL_SSO_PROVIDER_ID) return true;
        // Only an address the identity provider vouches for may link to an account: a
        // provider that leaves email_verified out would otherwise hand over any account.
        const verified = (profile as { email_verified?: unknown } | undefined)?.email_verified === true;
        const user = await linkSsoUser({ db: db(), subject: account.providerAccountId, email: verified ? profile?.email : undefined, name: profile?.name });
        return user !== null;
      },
      async jwt({ token, user, account }) {
        if (account?.provider === GLOBAL_SSO_PROVIDER_ID) {
          const linked = await db().user.findUnique({ where: { ssoSubject: account.providerAccountId } });
          if (linked) Object.assign(token, { uid: linked.id, role: linked.role, email: linked.email, name: linked.name });
        } else if (user) {
          Object.assign(token, { uid: user.id, role: (user as { role?: string }).role });
        }
        return token;
      },
      async session({ session, token }) {
        return { ...session, user: { ...session.user, id: token.uid as string, role: token.role as string } };
      },
    },
  };
}
