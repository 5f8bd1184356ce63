import { Link } from "@/components/link";
import { problemAdvice } from "@/lib/catalog/problem-advice";

/**
 * A recorded problem type, linked to its `/problems/{code}` page. The token
 * endpoint's OAuth errors (`invalid_client`...) have no page there, so they stay text.
 */
export function ProblemTypeLink({ code }: { code: string }) {
  if (!problemAdvice(code)) return <code className="font-mono">{code}</code>;
  return (
    <Link href={`/problems/${code}`} className="font-mono text-blue-800 underline">
      {code}
    </Link>
  );
}
