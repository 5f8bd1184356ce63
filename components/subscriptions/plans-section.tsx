import { Link } from "@/components/link";
import type { PlanSummary } from "@/lib/subscriptions/list-subscriptions";
import { SubscribeForm } from "./subscribe-form";

type Props = {
  api: string;
  plans: PlanSummary[];
  /** the applications the signed-in developer may subscribe; null when nobody is signed in */
  applications: { id: string; name: string }[] | null;
  environments: { slug: string; name: string }[];
  environment: string;
  signInHref: string;
};

const PERIODS = { hour: "hour", day: "day", month: "month" } as const;

/** An API's plans (limits, quota, approval), each with "Subscribe". */
export function PlansSection({ api, plans, applications, environments, environment, signInHref }: Props) {
  return (
    <section aria-labelledby="overview-plans" className="space-y-3">
      <h2 id="overview-plans" className="text-xl font-semibold">
        Plans
      </h2>
      <ul className="space-y-4">
        {plans.map((plan) => (
          <li key={plan.slug} className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
            <h3 className="font-semibold">{plan.name}</h3>
            {plan.description ? <p className="text-sm text-slate-700">{plan.description}</p> : null}
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 text-sm">
              <dt className="font-medium">Quota</dt>
              <dd>{`${plan.quota.requests.toLocaleString("en")} requests per ${PERIODS[plan.quota.period]} (UTC)`}</dd>
              <dt className="font-medium">Rate limit</dt>
              <dd>{`${plan.rateLimit.perSecond} per second, bursts of ${plan.rateLimit.burst}`}</dd>
              <dt className="font-medium">Approval</dt>
              <dd>{plan.approval === "auto" ? "At once" : "By an administrator"}</dd>
            </dl>
            {applications === null ? (
              <Link href={signInHref} className="text-sm underline">
                Sign in to subscribe
              </Link>
            ) : applications.length === 0 ? (
              <p className="text-sm text-slate-700">
                Create an application under <Link href="/settings/credentials">Settings → Client Credentials</Link> to subscribe.
              </p>
            ) : (
              <SubscribeForm
                api={api}
                plan={plan.slug}
                planName={plan.name}
                applications={applications}
                environments={environments}
                environment={environment}
              />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
