import Link from "next/link";

const STEPS = [
  { title: "Discover", text: "Browse the API catalog, read each OpenAPI reference and try endpoints in the browser." },
  { title: "Get credentials", text: "Create client credentials under Settings, or ask for them through Contact Us." },
  { title: "Call", text: "Exchange your client ID and secret for a token and call APIs through the gateway." },
];

export default function HomePage() {
  return (
    <div className="space-y-10">
      <section className="space-y-4">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Gatehouse developer portal</h1>
        <p className="max-w-2xl text-lg text-slate-700">
          Find the APIs you need, get credentials for the right environment, and call them through one gateway that checks every request.
        </p>
        <Link href="/apis" className="inline-block rounded-md bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800">
          Browse APIs
        </Link>
      </section>
      <section aria-labelledby="how-it-works">
        <h2 id="how-it-works" className="mb-4 text-xl font-semibold">
          How it works
        </h2>
        <ol className="grid gap-4 sm:grid-cols-3">
          {STEPS.map((step, index) => (
            <li key={step.title} className="rounded-lg border border-slate-200 bg-white p-4">
              <h3 className="font-semibold">
                {index + 1}. {step.title}
              </h3>
              <p className="mt-1 text-slate-700">{step.text}</p>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
