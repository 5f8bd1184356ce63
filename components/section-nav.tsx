import { Link } from "@/components/link";

export type Section = { href: string; label: string };

/** The row of links under a portal area's heading (Settings, Admin). */
export function SectionNav({ label, sections }: { label: string; sections: readonly Section[] }) {
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap gap-4 border-b border-slate-200 pb-2 text-sm font-medium">
        {sections.map((section) => (
          <li key={section.href}>
            <Link href={section.href} className="text-slate-700 hover:text-blue-700 hover:underline">
              {section.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
