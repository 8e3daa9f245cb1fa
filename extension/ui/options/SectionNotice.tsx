/** What an options section last did, or why it could not: one line under its heading. */
export interface Notice {
  readonly error: boolean;
  readonly text: string;
}

/** The section's notice, read out when it changes (`role="status"`); nothing when there is none. */
export function SectionNotice({ notice }: { readonly notice: Notice | null }) {
  if (notice === null) return null;
  return (
    <p role="status" className={notice.error ? 'sy-error-text' : 'op-muted'}>
      {notice.text}
    </p>
  );
}
