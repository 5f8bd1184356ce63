/** Reports each statement and its parameters, for scripts that explain the plans and tests that count queries. */
export type QueryListener = (sql: string, params: unknown[]) => void;
