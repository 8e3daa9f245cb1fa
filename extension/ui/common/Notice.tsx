import type { ReactNode } from 'react';
import './common.css';

export interface NoticeProps {
  readonly tone: 'info' | 'warning' | 'error';
  readonly title?: ReactNode;
  readonly children?: ReactNode;
  /** Buttons or links: what the user can do about it. */
  readonly actions?: ReactNode;
}

/** A boxed message. Errors are announced at once (role="alert"), the rest politely. */
export function Notice({ tone, title, children, actions }: NoticeProps) {
  return (
    <div className={`sy-notice sy-notice--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {title === undefined ? null : <p className="sy-notice__title">{title}</p>}
      {children === undefined ? null : <div className="sy-notice__body">{children}</div>}
      {actions === undefined ? null : <div className="sy-notice__actions">{actions}</div>}
    </div>
  );
}
