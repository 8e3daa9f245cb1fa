import type { ButtonHTMLAttributes } from 'react';
import './common.css';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** `primary` for the one main action, `danger` for refusing or destroying, `quiet` for minor ones. */
  readonly variant?: 'primary' | 'secondary' | 'danger' | 'quiet';
  readonly size?: 'normal' | 'small';
}

/** A button that is `type="button"` unless told otherwise (no accidental form submits). */
export function Button({
  variant = 'secondary',
  size = 'normal',
  className,
  type = 'button',
  ...rest
}: ButtonProps) {
  const classes = ['sy-button', `sy-button--${variant}`, size === 'small' ? 'sy-button--small' : '']
    .concat(className ?? '')
    .filter((c) => c !== '')
    .join(' ');
  return <button type={type} className={classes} {...rest} />;
}
