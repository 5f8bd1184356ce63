import { CopyButton } from "./copy-button";

export function CodeExample({ title, code }: { title: string; code: string }) {
  return (
    <figure className="min-w-0 space-y-1">
      <div className="flex items-center justify-between gap-2">
        <figcaption className="text-sm font-medium text-slate-800">{title}</figcaption>
        <CopyButton label={`Copy: ${title}`} />
      </div>
      <pre className="overflow-x-auto rounded-md bg-code p-3 text-sm text-on-code" tabIndex={0}>
        <code>{code}</code>
      </pre>
    </figure>
  );
}
