import { Link } from "@/components/link";
import type { DeveloperProgress, LoggedRequest, NextStep } from "@/lib/onboarding/developer-progress";

type Props = {
  /** null for an anonymous visitor: the steps without their state */
  progress: DeveloperProgress | null;
  /** an API's name by slug, for the request log's slugs */
  apiNames: Map<string, string>;
  /** where "Try it" takes a developer who has credentials but made no call yet */
  tryItHref: string | undefined;
};

const LINK = "font-medium text-blue-800 underline";

const when = (at: Date) => `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;

function describeRequest(request: LoggedRequest, apiNames: Map<string, string>): string {
  return `${when(request.at)}, ${apiNames.get(request.api) ?? request.api}, status ${request.status}`;
}

function credentialsState({ credentials }: DeveloperProgress): string {
  if (credentials.count === 0) return "You have no active credentials yet.";
  const noun = credentials.count === 1 ? "active credential" : "active credentials";
  return `You have ${credentials.count} ${noun}: ${credentials.environments.join(", ")}.`;
}

function NextStepLink({ next, tryItHref }: { next: NextStep; tryItHref: string | undefined }) {
  if (next === "get-credentials") {
    return (
      <Link href="/settings/credentials" className={LINK}>
        Create client credentials
      </Link>
    );
  }
  if (next === "first-call" && tryItHref) {
    return (
      <Link href={tryItHref} className={LINK}>
        Make your first call in the browser
      </Link>
    );
  }
  return (
    <Link href="/settings/usage" className={LINK}>
      See your usage
    </Link>
  );
}

/** The step to mark as the one to take now; none once the developer has made a call. */
const STEP_OF: Record<NextStep, number> = { "get-credentials": 0, "first-call": 1, "watch-usage": -1 };

/** Credentials, token, call: each with what the signed-in developer has done so far, and which comes next. */
export function FirstCallSteps({ progress, apiNames, tryItHref }: Props) {
  const steps = [
    {
      title: "Get credentials",
      text: "Create client credentials in a self-service environment under Settings, or ask for them through Contact Us.",
      state: progress && credentialsState(progress),
    },
    {
      title: "Get a token",
      text: "Exchange your client ID and secret at your environment's token endpoint. To try an API in the browser, the portal mints a 15-minute test token from your session instead.",
      state:
        progress &&
        (progress.lastToken ? `Your last token request: ${describeRequest(progress.lastToken, apiNames)}.` : "No token requests with your credentials yet."),
    },
    {
      title: "Call",
      text: "Send the token as a Bearer token to the API through the gateway of the same environment.",
      state: progress && (progress.lastCall ? `Your last call: ${describeRequest(progress.lastCall, apiNames)}.` : "No calls with your credentials yet."),
    },
  ];
  const current = progress ? STEP_OF[progress.next] : -1;
  return (
    <section aria-labelledby="first-call-steps" className="space-y-4">
      <h2 id="first-call-steps" className="text-xl font-semibold">
        Your first call in three steps
      </h2>
      <ol className="grid gap-4 sm:grid-cols-3">
        {steps.map((step, index) => (
          <li
            key={step.title}
            aria-current={index === current ? "step" : undefined}
            className={`rounded-lg border bg-white p-4 ${index === current ? "border-blue-700 ring-1 ring-blue-700" : "border-slate-200"}`}
          >
            <h3 className="font-semibold">
              {index + 1}. {step.title}
            </h3>
            <p className="mt-1 text-slate-700">{step.text}</p>
            {step.state && <p className="mt-2 text-sm font-medium text-slate-900">{step.state}</p>}
          </li>
        ))}
      </ol>
      {progress && (
        <p>
          <span className="font-semibold">Your next step:</span> <NextStepLink next={progress.next} tryItHref={tryItHref} />
        </p>
      )}
    </section>
  );
}
