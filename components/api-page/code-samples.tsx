import { codeSamples, type SampleCall } from "@/lib/catalog/code-samples";
import { CodeExample } from "./code-example";

/** The same call in curl, JavaScript and Python, each a complete program. */
export function CodeSamples({ call, context }: { call: SampleCall; context: string }) {
  return (
    <div className="space-y-3">
      {codeSamples(call).map((sample) => (
        <CodeExample key={sample.language} title={`${sample.label}: ${context}`} code={sample.code} />
      ))}
    </div>
  );
}
