import type { ReactNode } from "react";
import { SectionNav } from "@/components/section-nav";

const SECTIONS = [
  { href: "/settings/credentials", label: "Client Credentials" },
  { href: "/settings/requests", label: "Requests" },
  { href: "/settings/usage", label: "Usage" },
  { href: "/settings/teams", label: "Teams" },
  { href: "/settings/api-keys", label: "API keys" },
  { href: "/settings/tokens", label: "Access tokens" },
  { href: "/settings/agents", label: "Connected agents" },
  { href: "/settings/email", label: "Email" },
  { href: "/settings/webhooks", label: "Webhooks" },
];

export default function SettingsLayout({ children }: { children: ReactNode }) {
  return (
    <div className="space-y-6">
      <SectionNav label="Settings" sections={SECTIONS} />
      {children}
    </div>
  );
}
