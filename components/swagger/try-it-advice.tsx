import { adviceForResponseBody } from "@/lib/catalog/problem-advice";
import { InlineCodeText } from "@/components/api-page/inline-code-text";

type ImmutableResponse = { get(key: string): unknown };

function parseBody(text: unknown): unknown {
  if (typeof text !== "string") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Plain advice under a failed try-it call, from the problem `type` (or OAuth `error`) of its answer. */
export function TryItAdvice({ response }: { response?: ImmutableResponse }) {
  const status = Number(response?.get("status"));
  if (!response || !(status >= 400)) return null;
  const advice = adviceForResponseBody(parseBody(response.get("text")));
  if (!advice) return null;
  return (
    <div role="note" aria-label="What to do" className="gatehouse-advice">
      <p>
        <strong>{advice.title}.</strong> <InlineCodeText text={advice.explanation} />
      </p>
      <p>
        <strong>What to do:</strong> <InlineCodeText text={advice.advice} />
      </p>
      {!advice.code.includes("_") && (
        <p>
          <a href={`/problems/${advice.code}`} target="_blank" rel="noreferrer">
            More about this problem
          </a>
        </p>
      )}
    </div>
  );
}
