import { type Block, type Inline, parseMarkdown } from "@/lib/markdown/parse-markdown";

function InlineNodes({ nodes }: { nodes: Inline[] }) {
  return nodes.map((node, index) => {
    switch (node.kind) {
      case "text":
        return node.text;
      case "code":
        return (
          <code key={index} className="rounded bg-slate-100 px-1 font-mono text-sm">
            {node.text}
          </code>
        );
      case "strong":
        return (
          <strong key={index}>
            <InlineNodes nodes={node.children} />
          </strong>
        );
      case "em":
        return (
          <em key={index}>
            <InlineNodes nodes={node.children} />
          </em>
        );
      case "link":
        return (
          <a key={index} href={node.href} className="text-blue-800 underline" rel={node.external ? "noopener noreferrer nofollow" : undefined}>
            <InlineNodes nodes={node.children} />
          </a>
        );
    }
  });
}

const HEADINGS = ["h3", "h4", "h5", "h6"] as const;

function BlockNode({ block }: { block: Block }) {
  switch (block.kind) {
    case "heading": {
      // The page owns h1 and h2: a description's headings sit below them.
      const Heading = HEADINGS[Math.min(block.level, HEADINGS.length) - 1]!;
      return (
        <Heading className="font-semibold">
          <InlineNodes nodes={block.children} />
        </Heading>
      );
    }
    case "paragraph":
      return (
        <p>
          <InlineNodes nodes={block.children} />
        </p>
      );
    case "list": {
      const List = block.ordered ? "ol" : "ul";
      return (
        <List className={`space-y-1 pl-6 ${block.ordered ? "list-decimal" : "list-disc"}`}>
          {block.items.map((item, index) => (
            <li key={index}>
              <InlineNodes nodes={item} />
            </li>
          ))}
        </List>
      );
    }
    case "code":
      return (
        <pre className="overflow-x-auto rounded-md bg-code p-3 text-sm text-on-code" tabIndex={0}>
          <code>{block.text}</code>
        </pre>
      );
  }
}

/** Markdown from the API registry, rendered as React elements: no raw HTML, only http(s) or relative links. */
export function Markdown({ source, className = "" }: { source: string; className?: string }) {
  return (
    <div className={`space-y-3 text-slate-800 ${className}`}>
      {parseMarkdown(source).map((block, index) => (
        <BlockNode key={index} block={block} />
      ))}
    </div>
  );
}
