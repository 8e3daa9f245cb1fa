/** A sentence for the user from anything a request rejected with. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message !== '') return error.message;
  if (typeof error === 'string' && error !== '') return error;
  return 'Something went wrong; try again.';
}
