/** The message of whatever a service call rejected with (the bindings reject with an Error). */
export function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
