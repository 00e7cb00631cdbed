/** A program a control cannot be given, with the code the API answers with (409: the job is the problem, not the request). */
export class PostError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "PostError";
  }
}
