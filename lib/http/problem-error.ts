import { PROBLEMS, type ProblemCode } from "./problem-types";

/** Where in the request a bad value was found. */
export type FieldLocation = "body" | "query" | "path" | "header";
export type FieldError = { in: FieldLocation; field: string; message: string };

export type ProblemOptions = {
  detail?: string;
  errors?: FieldError[];
  /** lower-case names; a list is one field line per value (one `WWW-Authenticate` per method an API accepts) */
  headers?: Record<string, string | string[]>;
  /** extension members, e.g. the environments named by token-wrong-environment */
  extensions?: Record<string, unknown>;
};

/**
 * The one error type of Gatehouse. `code` names the problem type
 * (`token-expired`, `validation-failed`...), whose status and title come from
 * the registry; its message is safe to show.
 */
export class ProblemError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail?: string;
  readonly errors?: FieldError[];
  readonly headers?: Record<string, string | string[]>;
  readonly extensions?: Record<string, unknown>;

  constructor(
    readonly code: ProblemCode,
    options: ProblemOptions = {},
  ) {
    const { status, title } = PROBLEMS[code];
    super(options.detail ?? title);
    this.status = status;
    this.title = title;
    this.detail = options.detail;
    this.errors = options.errors;
    this.headers = options.headers;
    this.extensions = options.extensions;
  }
}
