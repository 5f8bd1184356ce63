import type { Metadata } from "next";
import { ContactForm } from "@/components/contact/contact-form";
import { currentUser } from "@/lib/auth/session";
import { contactChoices } from "@/lib/access-requests/contact";
import { firstParam, type SearchParams } from "@/lib/http/search-params";
import { db } from "@/lib/db";

export const metadata: Metadata = { title: "Contact Us" };
export const dynamic = "force-dynamic";

export default async function ContactPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const [user, choices, params] = await Promise.all([currentUser(), contactChoices({ db: db() }), searchParams]);
  const pick = (name: string) => firstParam(params[name]) ?? "";
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <h1 className="text-2xl font-bold">Contact Us</h1>
      <p className="text-slate-700">
        Ask for credentials in an environment that needs approval, for access to an API, or anything else. An administrator answers; signed-in users follow
        their requests under Settings.
      </p>
      <ContactForm
        choices={choices}
        signedIn={user ? { name: user.name, email: user.email } : null}
        initial={{ topic: pick("topic"), api: pick("api"), environment: pick("env") }}
      />
    </div>
  );
}
