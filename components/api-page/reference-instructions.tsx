"use client";

import { useEffect, useState } from "react";
import { onTestTokenApplied } from "@/components/swagger/authorize-event";

/** How to authorize the Reference's calls, until a test token has done it. */
export function ReferenceInstructions({ envName }: { envName: string }) {
  const [tokenApplied, setTokenApplied] = useState(false);
  useEffect(() => onTestTokenApplied(() => setTokenApplied(true)), []);
  return (
    <p className="text-slate-800">
      {tokenApplied
        ? `Test token applied: calls go to the ${envName} gateway with it. Open an operation and choose Execute.`
        : `Calls go to the ${envName} gateway. Get a token from its token endpoint, choose Authorize and paste it; it is kept for later visits in this browser.`}
    </p>
  );
}
