/**
 * The icons of the composer's secondary actions (issue 14): in a narrow panel the buttons show
 * only these, and their words stay for screen readers (the accessible name does not change).
 * Drawn in currentColor; hidden from assistive technology.
 */

const ICON = {
  width: 16,
  height: 16,
  viewBox: '0 0 16 16',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.5,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
  focusable: false,
  className: 'sy-icon',
} as const;

/** "Add context": an @, as typing @ opens the same picker. */
export function ContextIcon() {
  return (
    <svg {...ICON}>
      <circle cx="8" cy="8" r="2.6" />
      <path d="M10.6 5.6v3.3c0 1.2 2.4 1.6 2.4-1A5 5 0 1 0 10.4 12.4" />
    </svg>
  );
}

/** "Attach file": a paper clip. */
export function AttachIcon() {
  return (
    <svg {...ICON}>
      <path d="M13.2 7.6 8.1 12.7a3.2 3.2 0 0 1-4.5-4.5l5.4-5.4a2.1 2.1 0 0 1 3 3L6.6 11.2a1.1 1.1 0 0 1-1.5-1.5l4.9-4.9" />
    </svg>
  );
}
